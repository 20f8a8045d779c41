# Install tidemark from the build tree into a scratch prefix, then configure,
# build and run a tiny project that knows tidemark only through
# find_package(tidemark CONFIG REQUIRED).
set(prefix ${BINARY_DIR}/prefix)
file(REMOVE_RECURSE ${BINARY_DIR})

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "step failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

run_step(${CMAKE_COMMAND_PATH} --install ${BUILD_TREE} --prefix ${prefix})
run_step(${CMAKE_COMMAND_PATH} -S ${SOURCE_DIR}/tests/install_consumer/project -B ${BINARY_DIR}/build
         -G Ninja -DCMAKE_PREFIX_PATH=${prefix})
run_step(${CMAKE_COMMAND_PATH} --build ${BINARY_DIR}/build)
run_step(${BINARY_DIR}/build/consumer)
if(NOT step_output STREQUAL "2\n4\n6\n")
  message(FATAL_ERROR "the consumer printed:\n${step_output}")
endif()
message(STATUS "the installed package works")
