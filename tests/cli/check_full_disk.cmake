# A full disk while `pliant run` writes its frames and summary. The first run
# writes the outputs; the second runs the same scene into the same folder with the file size limited
# (`ulimit -f`, SIGXFSZ ignored: the kernel then refuses to grow a file past the limit, as a full disk
# refuses a block). The second run must fail with one line naming the file it could not write and
# the reason, leave every file of the first run byte for byte (summary.json included), and leave no
# temporary file behind. Variables: PLIANT, SCENE, OUT (a fresh folder).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${PLIANT} run ${SCENE} -o ${OUT} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err
  TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "first run: exit status '${rc}'\n${err}")
endif()
file(GLOB before RELATIVE ${OUT} ${OUT}/*)
list(LENGTH before n_before)
if(n_before LESS 3)
  message(FATAL_ERROR "first run wrote only ${before}")
endif()
foreach(f IN LISTS before)
  file(SHA256 ${OUT}/${f} hash_${f})
endforeach()

# 4 blocks (2 KiB for sh's 512-byte blocks): less than any frame or the summary.
execute_process(COMMAND sh -c "trap '' XFSZ; ulimit -f 4; exec \"$0\" run \"$1\" -o \"$2\"" ${PLIANT} ${SCENE} ${OUT}
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
if(rc STREQUAL "0")
  message(FATAL_ERROR "the run with a full disk exited 0:\n${err}")
endif()
string(STRIP "${err}" err)
string(FIND "${err}" "\n" newline)
if(NOT newline EQUAL -1)
  message(FATAL_ERROR "expected one line, got:\n${err}")
endif()
if(NOT err MATCHES "${OUT}/[^:]+: write failed: File too large")
  message(FATAL_ERROR "expected the file and the reason, got: ${err}")
endif()
file(GLOB after RELATIVE ${OUT} ${OUT}/* ${OUT}/.*)
if(NOT after STREQUAL before)
  message(FATAL_ERROR "files changed: before ${before}, after ${after}")
endif()
foreach(f IN LISTS before)
  file(SHA256 ${OUT}/${f} h)
  if(NOT h STREQUAL hash_${f})
    message(FATAL_ERROR "${f} changed under the failed run")
  endif()
endforeach()
message(STATUS "exit ${rc}: ${err}; ${n_before} files of the first run intact")
