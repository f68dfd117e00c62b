# culift_add_kernels(<target> HEADERS <header>... [ARCHS <sm>...] [HOST_LAUNCHERS]
#                    [OPTIONS <culift emit options>...])
#
# Kernels translated at build time and built into <target>. For each header:
#   1. `culift emit <header> --module` translates it with the target's include directories and
#      compile definitions (and the OPTIONS: `--reassociate`, `--function NAME`, ...; what
#      follows a `--` in OPTIONS goes to Clang), writing a depfile, so the module is made again
#      when the header or anything it includes changes. For each architecture in ARCHS (90 or
#      sm_90) the module carries a cubin compiled by NVRTC, when NVRTC is present at build time.
#   2. `culift embed` writes a C++ source holding the module file, added to <target>, and
#      culift_kernels/<stem>.hpp (<stem>: the header's name without extension, characters that
#      cannot be in an identifier as `_`), which declares
#          std::shared_ptr<culift::Module> culift_kernels::<stem>();
#   3. With HOST_LAUNCHERS, `culift emit --host-launchers` also writes <stem>.host.cpp, native CPU
#      entries of the kernels that call the header's functions, compiled into <target> by its own
#      compiler with -ffp-contract=off; the module's accessor attaches them, and the CPU backend
#      runs them instead of compiling the kernels with the JIT (docs/runtime.md#host-launchers).
# <target> links culift's runtime (and the interpreter, the CPU backend): no Clang at run time.
# The runtime launches a kernel from the cubin for the device when the module carries one (with
# EngineOptions::nvrtcOptional, even where NVRTC is missing), else compiles the module's CUDA
# source with NVRTC, and runs it on the CPU backend where there is no GPU (docs/module-files.md).
include_guard(GLOBAL)

function(culift_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 CULIFT "HOST_LAUNCHERS" "" "HEADERS;ARCHS;OPTIONS")
  if(CULIFT_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "culift_add_kernels: unexpected arguments ${CULIFT_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "culift_add_kernels: ${target} is not a target")
  endif()
  if(NOT CULIFT_HEADERS)
    message(FATAL_ERROR "culift_add_kernels(${target}): no HEADERS")
  endif()
  # The installed package's targets, or culift's own inside its build.
  if(TARGET culift::culift)
    set(culift_exe culift::culift)
    set(culift_runtime culift::runtime)
  else()
    set(culift_exe culift)
    set(culift_runtime culift_runtime)
  endif()

  set(emit_options "")
  set(clang_options "")
  set(after_dashes OFF)
  foreach(option IN LISTS CULIFT_OPTIONS)
    if(after_dashes)
      list(APPEND clang_options "${option}")
    elseif(option STREQUAL "--")
      set(after_dashes ON)
    else()
      list(APPEND emit_options "${option}")
    endif()
  endforeach()
  set(arch_options "")
  foreach(arch IN LISTS CULIFT_ARCHS)
    list(APPEND arch_options --arch ${arch})
  endforeach()

  # The target's include directories and definitions, as its own sources see them.
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  # But _GNU_SOURCE, which Clang defines itself in C++ (LLVM's definitions carry it to targets
  # that link culift's libraries, and a second definition is a warning).
  set(definitions "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,EXCLUDE,^_GNU_SOURCE(=.*)?$>")
  set(include_flags "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>")
  set(definition_flags "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>")

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/culift_kernels/${target})
  file(MAKE_DIRECTORY ${out_dir}/culift_kernels)
  foreach(header IN LISTS CULIFT_HEADERS)
    get_filename_component(header_path ${header} ABSOLUTE)
    get_filename_component(stem ${header} NAME_WE)
    string(MAKE_C_IDENTIFIER "${stem}" stem)
    set(module ${out_dir}/${stem}.culift)
    set(source ${out_dir}/${stem}.culift.cpp)
    set(declaration ${out_dir}/culift_kernels/${stem}.hpp)
    set(host_source ${out_dir}/${stem}.host.cpp)
    set(host_emit "")
    set(host_outputs "")
    set(host_embed "")
    if(CULIFT_HOST_LAUNCHERS)
      set(host_emit --host-launchers ${host_source} --name ${stem})
      set(host_outputs ${host_source})
      set(host_embed --host-launchers)
    endif()
    # The depfile's paths are absolute, as Clang writes them; DEPFILE takes them for Ninja and
    # Makefiles alike.
    add_custom_command(
      OUTPUT ${module} ${host_outputs}
      COMMAND ${culift_exe} emit ${header_path} --module ${module} --depfile ${module}.d ${arch_options} ${host_emit}
              ${emit_options} -- "${include_flags}" "${definition_flags}" ${clang_options}
      DEPENDS ${header_path} ${culift_exe}
      DEPFILE ${module}.d
      COMMENT "culift: translating ${header}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    add_custom_command(
      OUTPUT ${source} ${declaration}
      COMMAND ${culift_exe} embed ${module} --name ${stem} -o ${source} --header ${declaration} ${host_embed}
      DEPENDS ${module} ${culift_exe}
      COMMENT "culift: embedding the kernels of ${header}"
      VERBATIM)
    target_sources(${target} PRIVATE ${source} ${declaration})
    if(CULIFT_HOST_LAUNCHERS)
      # The functions compiled as the CPU backend computes them: no a*b+c contracted into an FMA.
      target_sources(${target} PRIVATE ${host_source})
      if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
        set_source_files_properties(${host_source} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS
                                                                                    -ffp-contract=off)
      endif()
    endif()
  endforeach()
  target_include_directories(${target} PRIVATE ${out_dir})
  target_link_libraries(${target} PRIVATE ${culift_runtime})
endfunction()
