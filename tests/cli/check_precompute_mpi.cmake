# `mpirun -np 2 pliant precompute`: two processes split the column solves and rank 0 writes
# one asset equal to the single-process one byte for byte (dense and compressed, with a control
# element), apart from the header's precompute time and the checksum that covers it; ranks that
# read different meshes stop together with one error line and leave no asset. Variables: PLIANT,
# MPIEXEC, OUT (a fresh folder).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(mesh box:0.4,0.1,0.1,8,2,2)
set(common --fix xmin --control xmax --material rubber)

function(run_ok what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "${what}: exit status '${rc}'\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

# The bytes of a .green file that do not depend on when or how fast it was built: everything but
# the precompute seconds (header bytes 104-111) and the trailing checksum (8 bytes).
function(stable_hex file var)
  file(SIZE ${file} size)
  file(READ ${file} head LIMIT 104 HEX)
  math(EXPR rest "${size} - 112 - 8")
  file(READ ${file} body OFFSET 112 LIMIT ${rest} HEX)
  set(${var} "${head}${body}" PARENT_SCOPE)
endfunction()

foreach(kind dense compressed)
  set(extra)
  if(kind STREQUAL "compressed")
    set(extra --compress 1e-3)
  endif()
  run_ok("one process (${kind})" ${PLIANT} precompute ${mesh} ${common} ${extra} --threads 1 -o ${OUT}/one_${kind}.green)
  run_ok("two processes (${kind})" ${MPIEXEC} -np 2 --oversubscribe ${PLIANT} precompute ${mesh} ${common} ${extra}
    -o ${OUT}/two_${kind}.green)
  if(NOT run_out MATCHES "in each of 2 processes" OR NOT run_out MATCHES "by 2 processes")
    message(FATAL_ERROR "two processes (${kind}): the report does not say it ran in 2 processes:\n${run_out}")
  endif()
  string(REGEX MATCHALL "wrote " writes "${run_out}")
  list(LENGTH writes n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "two processes (${kind}): expected rank 0 alone to report, got:\n${run_out}")
  endif()
  stable_hex(${OUT}/one_${kind}.green a)
  stable_hex(${OUT}/two_${kind}.green b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${kind}: the two-process asset differs from the single-process one")
  endif()
  # The asset reads back (checksum and all).
  run_ok("info (${kind})" ${PLIANT} info ${OUT}/two_${kind}.green)
endforeach()

# Ranks that disagree on the mesh: one line naming the disagreement, a non-zero exit, no asset.
execute_process(COMMAND ${MPIEXEC} -np 1 ${PLIANT} precompute ${mesh} ${common} -o ${OUT}/bad.green
  : -np 1 ${PLIANT} precompute box:0.4,0.1,0.1,6,2,2 ${common} -o ${OUT}/bad.green
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
if(rc STREQUAL "0")
  message(FATAL_ERROR "ranks with different meshes exited 0:\n${out}\n${err}")
endif()
string(REGEX MATCHALL "pliant: error:[^\n]*" errors "${err}")
list(LENGTH errors n)
if(NOT n EQUAL 1 OR NOT errors MATCHES "disagree on the mesh")
  message(FATAL_ERROR "expected one error line saying the ranks disagree, got:\n${err}")
endif()
if(EXISTS ${OUT}/bad.green)
  message(FATAL_ERROR "a failed job left ${OUT}/bad.green")
endif()
