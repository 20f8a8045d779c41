# Install tidemark into a scratch prefix, then configure, build and run a tiny
# project that only knows find_package(tidemark CONFIG REQUIRED).
set(prefix ${BINARY_DIR}/prefix)
file(REMOVE_RECURSE ${BINARY_DIR})
execute_process(COMMAND ${CMAKE_COMMAND_PATH} --install ${SOURCE_DIR}/build-for-install-consumer-unused --prefix ${prefix}
                RESULT_VARIABLE ignored OUTPUT_QUIET ERROR_QUIET)
