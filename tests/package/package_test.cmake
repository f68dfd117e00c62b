# The package as a user meets it: installs culift into a fresh prefix, checks what landed there,
# then configures, builds and runs tests/package/consumer against the install prefix and against
# the build tree, and examples/host_app (culift_add_kernels) against the install prefix: its
# kernels translated at build time, translated again when a header they include changes, and
# run without Clang in the process. Run by ctest (tests/package/CMakeLists.txt) with
#   -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=... [-DCXX_FLAGS=...]
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_test.cmake needs -D${var}=...")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${command}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

foreach(file bin/culift include/culift/annotate.hpp include/culift/ast/module_file.hpp
             lib/cmake/culift/culiftKernels.cmake include/culift/version.hpp include/culift/ast/module.hpp
             include/culift/translate.hpp include/culift/codegen.hpp include/culift/interpreter.hpp
             include/culift/runtime/runtime.hpp lib/libculift_runtime.a lib/libculift_translator.a
             lib/cmake/culift/culiftConfig.cmake lib/cmake/culift/culiftConfigVersion.cmake
             lib/cmake/culift/culiftTargets.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()
# The installed package is relocatable from the trees it was built in: no path into either.
file(GLOB_RECURSE installed_cmake ${prefix}/lib/cmake/culift/*.cmake)
foreach(file ${installed_cmake})
  file(READ ${file} text)
  foreach(tree ${SOURCE_DIR} ${BUILD_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names a path in ${tree}")
    endif()
  endforeach()
endforeach()

foreach(kind install build)
  if(kind STREQUAL "install")
    set(locate -DCMAKE_PREFIX_PATH=${prefix})
  else()
    set(locate -Dculift_DIR=${BUILD_DIR})
  endif()
  set(consumer_build ${WORK_DIR}/consumer-${kind})
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package/consumer -B ${consumer_build} -G ${GENERATOR}
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" ${locate})
  run(${CMAKE_COMMAND} --build ${consumer_build})
  run(${consumer_build}/consumer)
  if(NOT run_output MATCHES "consumer: culift [0-9.]+ ok")
    message(FATAL_ERROR "the consumer built against the ${kind} tree printed: ${run_output}")
  endif()
  message(STATUS "${kind} tree: ${run_output}")
endforeach()

# examples/host_app, copied so that the test can touch its headers.
set(app_source ${WORK_DIR}/host_app)
set(app_build ${WORK_DIR}/host_app-build)
file(COPY ${SOURCE_DIR}/examples/host_app/ DESTINATION ${app_source})
run(${CMAKE_COMMAND} -S ${app_source} -B ${app_build} -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${app_build})
if(NOT run_output MATCHES "culift: translating kernels/signal-stats.hpp")
  message(FATAL_ERROR "host_app's build did not translate its kernels:\n${run_output}")
endif()
foreach(file culift_kernels/host_app/signal_stats.culift culift_kernels/host_app/culift_kernels/signal_stats.hpp)
  if(NOT EXISTS ${app_build}/${file})
    message(FATAL_ERROR "host_app's build made no ${file}")
  endif()
endforeach()
run(${app_build}/host_app)
foreach(expected "match the native build" "libclang-cpp mapped: no")
  if(NOT run_output MATCHES "${expected}")
    message(FATAL_ERROR "host_app printed:\n${run_output}")
  endif()
endforeach()
message(STATUS "host_app: ${run_output}")

# Nothing changed: nothing is translated again. A header the kernels include changed: they are.
run(${CMAKE_COMMAND} --build ${app_build})
if(run_output MATCHES "culift: translating")
  message(FATAL_ERROR "host_app's kernels were translated again with nothing changed:\n${run_output}")
endif()
file(APPEND ${app_source}/kernels/signal_math.hpp "// changed\n")
run(${CMAKE_COMMAND} --build ${app_build})
if(NOT run_output MATCHES "culift: translating kernels/signal-stats.hpp")
  message(FATAL_ERROR "a change to signal_math.hpp did not translate the kernels again:\n${run_output}")
endif()
