# Emitted CUDA C as host C++ (cmake -DIN=x.cu -DOUT=x.cpp -P host_source.cmake): the device
# preludes (between their "---- culift ... prelude" and "---- end of culift ... prelude ----"
# lines) left out, cuda_emulation.hpp included first in their place; dynamic shared memory static.
file(READ "${IN}" text)
foreach(prelude "device" "plan" "tensor core")
  string(FIND "${text}" "// ---- culift ${prelude} prelude" begin)
  string(FIND "${text}" "// ---- end of culift ${prelude} prelude ----" end)
  if(begin GREATER_EQUAL 0 AND end GREATER begin)
    string(LENGTH "// ---- end of culift ${prelude} prelude ----" marker)
    math(EXPR end "${end} + ${marker}")
    string(SUBSTRING "${text}" 0 ${begin} before)
    string(SUBSTRING "${text}" ${end} -1 after)
    set(text "${before}// (the ${prelude} prelude: cuda_emulation.hpp's host versions)${after}")
  endif()
endforeach()
# Dynamic shared memory (extern __shared__ T name[];) as a static buffer of 256 KiB.
string(REGEX REPLACE "extern __shared__ ([^;]*)\\[\\];" "__shared__ \\1[262144];" text "${text}")
file(WRITE "${OUT}" "#include \"cuda_emulation.hpp\"\n${text}")
