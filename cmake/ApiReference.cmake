# The API reference: HTML pages for the public headers (include/tidemark), with
# README.md as the main page and docs/*.md as related pages, made by Doxygen
# from docs/Doxyfile.in. Included once from the top-level CMakeLists.txt, after
# the tests are set up:
#
#   cmake --build <build dir> --target api-reference
#   # -> <build dir>/api-reference/html/index.html
#
# Without Doxygen the target exists too, and fails, saying how to install it
# (apt-get install doxygen; tools/install-deps does). No diagrams: Graphviz is
# not needed.
#
# With TIDEMARK_BUILD_TESTS, the test `api_reference` (label "docs") builds the
# reference into its own directory (<build dir>/api-reference-test) and checks
# the pages of a few key classes. Doxygen's warnings about real documentation
# errors fail it when TIDEMARK_WERROR is ON, as compiler warnings do.
#
# The test runs this same file as a script (cmake -P); that part is at the end.

if(NOT CMAKE_SCRIPT_MODE_FILE)

find_package(Doxygen)

# Doxyfile for one output directory: configure_file() of docs/Doxyfile.in.
function(tidemark_api_reference_doxyfile doxyfile output_dir warn_as_error)
  set(TIDEMARK_API_REFERENCE_OUTPUT "${output_dir}")
  set(TIDEMARK_API_REFERENCE_INPUT
      "\"${PROJECT_SOURCE_DIR}/include/tidemark\" \"${PROJECT_SOURCE_DIR}/README.md\" \"${PROJECT_SOURCE_DIR}/docs\"")
  set(TIDEMARK_API_REFERENCE_MAINPAGE "\"${PROJECT_SOURCE_DIR}/README.md\"")
  set(TIDEMARK_API_REFERENCE_WARN_LOG "\"${output_dir}/warnings.log\"")
  set(TIDEMARK_API_REFERENCE_WARN_AS_ERROR "${warn_as_error}")
  configure_file("${PROJECT_SOURCE_DIR}/docs/Doxyfile.in" "${doxyfile}" @ONLY)
endfunction()

if(DOXYGEN_FOUND)
  set(api_reference_dir "${PROJECT_BINARY_DIR}/api-reference")
  tidemark_api_reference_doxyfile("${api_reference_dir}/Doxyfile" "${api_reference_dir}" NO)
  # The html directory is made anew, so pages of removed classes do not linger.
  add_custom_target(api-reference
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${api_reference_dir}/html"
    COMMAND Doxygen::doxygen "${api_reference_dir}/Doxyfile"
    COMMAND "${CMAKE_COMMAND}" -E echo "API reference: ${api_reference_dir}/html/index.html"
    WORKING_DIRECTORY "${api_reference_dir}"
    COMMENT "Generating the API reference with Doxygen"
    VERBATIM)

  if(TIDEMARK_BUILD_TESTS)
    set(api_reference_test_dir "${PROJECT_BINARY_DIR}/api-reference-test")
    if(TIDEMARK_WERROR)
      set(api_reference_werror FAIL_ON_WARNINGS)
    else()
      set(api_reference_werror NO)
    endif()
    tidemark_api_reference_doxyfile("${api_reference_test_dir}/Doxyfile" "${api_reference_test_dir}"
                                    ${api_reference_werror})
    add_test(NAME api_reference
      COMMAND "${CMAKE_COMMAND}"
        "-DDOXYGEN_EXECUTABLE=${DOXYGEN_EXECUTABLE}"
        "-DDOXYFILE=${api_reference_test_dir}/Doxyfile"
        "-DOUTPUT_DIR=${api_reference_test_dir}"
        -P "${CMAKE_CURRENT_LIST_FILE}")
    set_tests_properties(api_reference PROPERTIES LABELS docs TIMEOUT 600)
  endif()
else()
  message(STATUS "Doxygen not found: the api-reference target will only say how to install it")
  add_custom_target(api-reference
    COMMAND "${CMAKE_COMMAND}" -E echo
      "api-reference: Doxygen was not found. Install it (Debian: apt-get install doxygen, or run tools/install-deps), then configure this build tree again."
    COMMAND "${CMAKE_COMMAND}" -E false
    VERBATIM)
endif()

return()
endif()

# ---- script mode: the api_reference test ----
# cmake -DDOXYGEN_EXECUTABLE=... -DDOXYFILE=... -DOUTPUT_DIR=... -P ApiReference.cmake
foreach(variable DOXYGEN_EXECUTABLE DOXYFILE OUTPUT_DIR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "ApiReference.cmake as a script needs -D${variable}=...")
  endif()
endforeach()

file(REMOVE_RECURSE "${OUTPUT_DIR}/html")
file(REMOVE "${OUTPUT_DIR}/warnings.log")
string(TIMESTAMP started "%s")
execute_process(COMMAND "${DOXYGEN_EXECUTABLE}" "${DOXYFILE}"
                WORKING_DIRECTORY "${OUTPUT_DIR}"
                RESULT_VARIABLE doxygen_result)
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
message(STATUS "doxygen ran for about ${seconds} s")

set(problems "")
if(EXISTS "${OUTPUT_DIR}/warnings.log")
  file(READ "${OUTPUT_DIR}/warnings.log" warnings)
  if(NOT warnings STREQUAL "")
    message("Doxygen's warnings (${OUTPUT_DIR}/warnings.log):\n${warnings}")
  endif()
endif()
if(NOT doxygen_result EQUAL 0)
  string(APPEND problems "  doxygen exited with ${doxygen_result}\n")
endif()

# Each key class has its page, and the page lists a member that only the real
# class has (an empty page would mean the header no longer parses).
set(html "${OUTPUT_DIR}/html")
foreach(check
    "classtidemark_1_1StreamExecutionEnvironment.html|enableSimulatedTime"
    "classtidemark_1_1DataStream.html|assignTimestampsAndWatermarks"
    "classtidemark_1_1KeyedStream.html|intervalJoin"
    "classtidemark_1_1WindowedStream.html|allowedLateness"
    "classtidemark_1_1WatermarkStrategy.html|forBoundedOutOfOrderness"
    "classtidemark_1_1KeyedProcessFunction.html|processElement"
    "classtidemark_1_1Pattern.html|followedByAny"
    "index.html|tidemark")
  string(REPLACE "|" ";" check "${check}")
  list(GET check 0 page)
  list(GET check 1 member)
  if(NOT EXISTS "${html}/${page}")
    string(APPEND problems "  missing page ${page}\n")
  else()
    file(STRINGS "${html}/${page}" hits REGEX "${member}" LIMIT_COUNT 1)
    if(NOT hits)
      string(APPEND problems "  ${page} does not mention ${member}\n")
    endif()
  endif()
endforeach()

# The headers' opening comments became their file pages (docs/Doxyfile.in's filter).
set(file_page "${html}/data__stream_8h.html")
if(EXISTS "${file_page}")
  file(STRINGS "${file_page}" hits REGEX "class=\"fragment\"" LIMIT_COUNT 1)
  if(NOT hits)
    string(APPEND problems "  data__stream_8h.html lacks the header's opening comment\n")
  endif()
else()
  string(APPEND problems "  missing page data__stream_8h.html\n")
endif()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "The API reference is broken:\n${problems}")
endif()
message(STATUS "API reference OK: ${html}/index.html")
