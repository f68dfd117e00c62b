# The CMake package: `cmake --install` puts the public headers, the libraries, the culift command
# line and culiftConfig.cmake (+ version file) under the prefix; the build tree holds a config of
# its own, so find_package(culift CONFIG REQUIRED) works from either (docs/getting-started.md).
#
# Imported targets: culift::annotate, culift::ast, culift::codegen, culift::translator (the only
# one that links Clang), culift::interpreter, culift::cpujit, culift::runtime, and the executable culift::culift;
# and the function culift_add_kernels (cmake/culiftKernels.cmake).
# culift::llvm (LLVM Support's headers and library) and culift::version are what they link.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CULIFT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/culift)

set(culift_package_targets culift_llvm culift_version culift_annotate culift_ast culift_codegen culift_translator)
foreach(target culift_interp culift_cpujit culift_runtime)
  if(TARGET ${target})
    list(APPEND culift_package_targets ${target})
  endif()
endforeach()
foreach(target ${culift_package_targets})
  string(REGEX REPLACE "^culift_" "" export_name ${target})
  if(export_name STREQUAL "interp")
    set(export_name interpreter)
  endif()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

install(TARGETS ${culift_package_targets} EXPORT culiftTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Public headers: every module's include/ folder, the annotation header and the generated version.
foreach(dir ast/include translator/include interpreter/include cpujit/include runtime/include include)
  if(EXISTS ${PROJECT_SOURCE_DIR}/${dir})
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  endif()
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/culift/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/culift)

# The config: the install tree's, then the build tree's (the same template; the targets file
# next to it names the build's own libraries and source include folders).
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/culiftConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/culiftConfig.cmake
                              INSTALL_DESTINATION ${CULIFT_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so only the same major.minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/culiftConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/culiftConfig.cmake ${PROJECT_BINARY_DIR}/culiftConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/culiftKernels.cmake
        DESTINATION ${CULIFT_INSTALL_CMAKEDIR})
install(EXPORT culiftTargets NAMESPACE culift:: DESTINATION ${CULIFT_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/culiftConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/culiftConfig.cmake
                              INSTALL_DESTINATION ${PROJECT_BINARY_DIR}
                              INSTALL_PREFIX ${PROJECT_BINARY_DIR})
export(EXPORT culiftTargets NAMESPACE culift:: FILE ${PROJECT_BINARY_DIR}/culiftTargets.cmake)
configure_file(${PROJECT_SOURCE_DIR}/cmake/culiftKernels.cmake ${PROJECT_BINARY_DIR}/culiftKernels.cmake COPYONLY)

# culift_add_kernels for culift's own examples and tests too.
include(${PROJECT_SOURCE_DIR}/cmake/culiftKernels.cmake)
