# Runs a command that must be refused: exit status 2 and `EXPECT` in its message.
#   cmake -DCMD="a;b;c" -DEXPECT=... -P expect_refusal.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit status 2, got ${rc}: ${out}${err}")
endif()
string(FIND "${out}${err}" "${EXPECT}" at)
if(at LESS 0)
  message(FATAL_ERROR "the message does not say '${EXPECT}': ${out}${err}")
endif()
