# cmake -P script: install, configure the consumer against the install, build it, run it.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release -DPLIANT_EXAMPLES_DIR=${EXAMPLES_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer ${WORK_DIR}/out.vtu)
run(${WORK_DIR}/build/drag_beam ${WORK_DIR}/beam.obj)
if(NOT EXISTS ${WORK_DIR}/beam.obj)
  message(FATAL_ERROR "drag_beam wrote no beam.obj")
endif()
# A scene file run headless through pliant::headless, as `pliant run` does.
run(${WORK_DIR}/build/run_scene ${EXAMPLES_DIR}/../scenes/sheet_tear.json ${WORK_DIR}/sheet 20)
if(NOT EXISTS ${WORK_DIR}/sheet/summary.json)
  message(FATAL_ERROR "run_scene wrote no summary.json")
endif()
# A family that lives outside the library: registered at run time, run through a scene file naming it
# and through the installed conformance suite (only its own parameterised cases: the built-in families
# have theirs in the build's own suite).
run(${CMAKE_COMMAND} -S ${PLUGIN_DIR} -B ${WORK_DIR}/plugin -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/plugin)
run(${WORK_DIR}/plugin/run_bob ${PLUGIN_DIR}/bob_drop.json)
if(NOT EXISTS ${WORK_DIR}/plugin/bob_conformance)
  message(FATAL_ERROR "the plugin family's conformance suite was not built (Google Test or OpenMP not found?)")
endif()
run(${CMAKE_COMMAND} -E env OMP_WAIT_POLICY=passive ${WORK_DIR}/plugin/bob_conformance
    --gtest_filter=Families/Conformance.*/bob:Conformance.RegistryListsFamiliesInErrors)
# The Python package lands in the interpreter's directory under the prefix and imports from there.
if(PYTHON)
  run(${CMAKE_COMMAND} -E env PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_SITE} ${PYTHON} -c
      "import pliant, pathlib; assert pathlib.Path(pliant.__file__).with_suffix('.pyi').exists(); print(pliant.box())")
endif()
