# Runs `pliant haptics SCENE --seconds 1 --json` and checks the report: exit 0, samples taken, the
# simulation stepped, finite forces. The achieved rate and jitter are printed, not asserted (shared
# CI machines are noisy; docs/benchmarks.md records measured figures).
execute_process(COMMAND ${PLIANT} haptics ${SCENE} --seconds 1 --json RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "pliant haptics: exit status '${rc}'\n${out}\n${err}")
endif()
string(JSON samples GET "${out}" samples)
string(JSON steps GET "${out}" simulation_steps)
string(JSON force GET "${out}" max_force_n)
string(JSON jump GET "${out}" max_force_jump_n)
if(NOT samples GREATER 10 OR NOT steps GREATER 1)
  message(FATAL_ERROR "haptic loop took ${samples} samples and ${steps} simulation steps:\n${out}")
endif()
if(NOT force GREATER 0 OR NOT jump LESS force)
  message(FATAL_ERROR "forces: max ${force} N, largest jump ${jump} N:\n${out}")
endif()
string(JSON hz GET "${out}" achieved_hz)
string(JSON p99 GET "${out}" period_p99_ms)
message(STATUS "haptic loop: ${hz} Hz achieved, p99 period ${p99} ms, ${samples} samples")
