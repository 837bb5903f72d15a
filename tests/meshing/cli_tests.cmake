# CLI tests of `pliant mesh` (label "cli"): they run the built binary.
set(_out ${CMAKE_CURRENT_BINARY_DIR}/cli)
set(_run ${PROJECT_SOURCE_DIR}/tests/cli/run_cli.cmake)

# pliant_meshing_cli_test(NAME RC <n> ARGS <args...> [STDOUT re] [STDERR re] [FILES f...] [FIXTURE_SETUP f]
#                         [FIXTURE_REQUIRED f])
function(pliant_meshing_cli_test name)
  cmake_parse_arguments(A "" "RC;STDOUT;STDERR;FIXTURE_SETUP;FIXTURE_REQUIRED" "ARGS;FILES" ${ARGN})
  # A ';' or an unbalanced '[' in a pattern splits it into list elements: the pattern would be cut there
  # and the rest silently dropped. Refuse instead (write '.' for ';', '.' or '\\[' inside a class).
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${name}: arguments left over (${A_UNPARSED_ARGUMENTS}): a pattern holding ';' or '['?")
  endif()
  set(defs -DEXPECT_RC=${A_RC} -DWORKDIR=${_out})
  if(DEFINED A_STDOUT)
    list(APPEND defs "-DSTDOUT_REGEX=${A_STDOUT}")
  endif()
  if(DEFINED A_STDERR)
    list(APPEND defs "-DSTDERR_REGEX=${A_STDERR}")
  endif()
  # Lists travel to the script joined with "|" (a ";" would split the -D argument).
  string(REPLACE ";" "|" args "$<TARGET_FILE:pliant>;${A_ARGS}")
  string(REPLACE ";" "|" files "${A_FILES}")
  add_test(NAME meshing.cli.${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${args}" "-DFILES=${files}" ${defs} -P ${_run})
  set_tests_properties(meshing.cli.${name} PROPERTIES LABELS cli TIMEOUT 300)
  if(A_FIXTURE_SETUP)
    set_tests_properties(meshing.cli.${name} PROPERTIES FIXTURES_SETUP ${A_FIXTURE_SETUP})
  endif()
  if(A_FIXTURE_REQUIRED)
    set_tests_properties(meshing.cli.${name} PROPERTIES FIXTURES_REQUIRED ${A_FIXTURE_REQUIRED})
  endif()
endfunction()

# Procedural shapes: counts in the summary line, files written.
pliant_meshing_cli_test(tube RC 0 ARGS mesh tube --segments-around 16 --segments-along 10 --segments-through 2 -o ${_out}/tube.vtu
  STDOUT "wrote .*tube.vtu: 528 nodes, 1920 tets" FILES ${_out}/tube.vtu)
pliant_meshing_cli_test(box_five RC 0 ARGS mesh box --size 1 0.5 0.25 --cells 4 2 1 --split 5 -o ${_out}/box.vtu
  STDOUT "30 nodes, 40 tets. volume 0.125 m³" FILES ${_out}/box.vtu)
pliant_meshing_cli_test(box_default_five RC 0 ARGS mesh box --size 1 0.5 0.25 --cells 4 2 1 -o ${_out}/box5.vtu
  STDOUT "30 nodes, 40 tets. volume 0.125 m³" FILES ${_out}/box5.vtu)
pliant_meshing_cli_test(box_six RC 0 ARGS mesh box --size 1 0.5 0.25 --cells 4 2 1 --split 6 -o ${_out}/box6.vtu
  STDOUT "30 nodes, 48 tets. volume 0.125 m³" FILES ${_out}/box6.vtu)
pliant_meshing_cli_test(ball_stl RC 0 ARGS mesh ball --resolution 4 -o ${_out}/ball.stl
  STDOUT "125 nodes, 384 tets \\(boundary surface written\\)" FILES ${_out}/ball.stl)
pliant_meshing_cli_test(disc_seed RC 0 ARGS mesh disc --nodes 1403 --boundary-nodes 140 -o ${_out}/disc.obj
  STDOUT "1403 nodes, 4066 edges, 2664 triangles" FILES ${_out}/disc.obj)
pliant_meshing_cli_test(hexdisc RC 0 ARGS mesh hexdisc --rings 33 -o ${_out}/hexdisc.vtu
  STDOUT "3367 nodes, 9900 edges, 6534 triangles" FILES ${_out}/hexdisc.vtu)
pliant_meshing_cli_test(rect RC 0 ARGS mesh rect --cells 3 2 -o ${_out}/rect.vtu
  STDOUT "12 nodes, 23 edges, 12 triangles" FILES ${_out}/rect.vtu)
pliant_meshing_cli_test(icosphere RC 0 ARGS mesh icosphere --subdivisions 2 -o ${_out}/sphere.stl
  STDOUT "162 nodes, 480 edges, 320 triangles" FILES ${_out}/sphere.stl FIXTURE_SETUP meshing_sphere_stl)

# Impossible parameters: one line naming the option, exit 2, nothing written.
pliant_meshing_cli_test(err_inner_outer RC 2 ARGS mesh tube --inner-radius 0.2 --outer-radius 0.1 -o ${_out}/bad.vtu
  STDERR "--inner-radius: must be less than --outer-radius \\(got 0.2 ≥ 0.1\\)")
pliant_meshing_cli_test(err_zero_cells RC 2 ARGS mesh box --cells 4 0 2 -o ${_out}/bad.vtu
  STDERR "--cells: must be a whole number ≥ 1 \\(got 0\\)")
pliant_meshing_cli_test(err_negative_size RC 2 ARGS mesh box --size 1 -0.5 1 -o ${_out}/bad.vtu
  STDERR "--size: must be a finite number > 0 \\(got -0.5\\)")
pliant_meshing_cli_test(err_nan RC 2 ARGS mesh ball --radius nan -o ${_out}/bad.vtu
  STDERR "--radius: must be a finite number > 0 \\(got nan\\)")
pliant_meshing_cli_test(err_odd_resolution RC 2 ARGS mesh ball --resolution 7 -o ${_out}/bad.vtu
  STDERR "--resolution: must be even")
pliant_meshing_cli_test(err_disc_range RC 2 ARGS mesh disc --nodes 150 --boundary-nodes 140 -o ${_out}/bad.vtu
  STDERR "--nodes: must be between [0-9]+ and [0-9]+ for --boundary-nodes 140 \\(got 150\\)")
pliant_meshing_cli_test(err_too_big RC 2 ARGS mesh box --cells 100000 100000 100000 -o ${_out}/bad.vtu
  STDERR "more than the limit")
pliant_meshing_cli_test(err_format RC 2 ARGS mesh tube -o ${_out}/bad.xyz STDERR "unsupported output format '.xyz'")
pliant_meshing_cli_test(err_no_input RC 2 ARGS mesh STDERR "give a surface file")

# Surface to tets (gmsh): the icosphere written above, filled.
if(TARGET pliant::meshing_gmsh)
  # --size remeshes the surface at that edge length; --keep-surface keeps the input triangles (the
  # boundary of the tets is then exactly the icosphere: 320 triangles).
  pliant_meshing_cli_test(surface RC 0 ARGS mesh ${_out}/sphere.stl --size 0.03 -o ${_out}/sphere.vtu
    STDOUT "162 nodes, 320 triangles.*gmsh: [0-9]+ tets in [0-9.]+ s \\(surface remeshed at 0.03 m\\)"
    FILES ${_out}/sphere.vtu FIXTURE_REQUIRED meshing_sphere_stl)
  pliant_meshing_cli_test(surface_keep RC 0 ARGS mesh ${_out}/sphere.stl --size 0.03 --keep-surface
    -o ${_out}/sphere_kept.stl
    STDOUT "\\(input surface kept, tets inside up to 0.03 m\\)" FILES ${_out}/sphere_kept.stl
    FIXTURE_REQUIRED meshing_sphere_stl FIXTURE_SETUP meshing_sphere_kept)
  pliant_meshing_cli_test(surface_keep_boundary RC 0 ARGS info ${_out}/sphere_kept.stl STDOUT "triangles +320\n"
    FIXTURE_REQUIRED meshing_sphere_kept)
  # No mesh of a sphere has all dihedral angles above 50°: the sliver pass runs, and the warning names
  # the worst tet left and where.
  pliant_meshing_cli_test(sliver_warning RC 0 ARGS mesh ${_out}/sphere.stl --min-dihedral 50 -o ${_out}/sphere50.vtu
    STDOUT "slivers: [0-9]+ tets under 50° after gmsh .*. [0-9]+ left, smallest dihedral [0-9.]+°\nwarning: [0-9]+ tets? ha(s|ve) a dihedral angle under 50°, the smallest [0-9.]+° at tet [0-9]+ near \\([-0-9.e]+, [-0-9.e]+, [-0-9.e]+\\) m \\([0-4] of its 4 nodes on the surface\\)"
    FILES ${_out}/sphere50.vtu FIXTURE_REQUIRED meshing_sphere_stl)
  # Surface nodes of slivers slide along the sphere, each slide within 10% of the mean edge of it.
  pliant_meshing_cli_test(sliver_slide RC 0 ARGS mesh ${_out}/sphere.stl --min-dihedral 20 -o ${_out}/sphere20.vtu
    STDOUT "slivers: [0-9]+ surface nodes slid along the surface \\([0-9]+ moves\\). the boundary around them within [-0-9.e]+ m of the input \\(each slide bounded by [-0-9.e]+ m, 0.1 of the mean surface edge"
    FILES ${_out}/sphere20.vtu FIXTURE_REQUIRED meshing_sphere_stl)
  pliant_meshing_cli_test(err_slide_angle RC 2 ARGS mesh ${_out}/sphere.stl --slide-angle 95 -o ${_out}/bad.vtu
    STDERR "--slide-angle" FIXTURE_REQUIRED meshing_sphere_stl)
  pliant_meshing_cli_test(err_slide_tolerance RC 2 ARGS mesh ${_out}/sphere.stl --slide-tolerance 0 -o ${_out}/bad.vtu
    STDERR "--slide-tolerance" FIXTURE_REQUIRED meshing_sphere_stl)
  pliant_meshing_cli_test(err_remesh_and_keep RC 2 ARGS mesh ${_out}/sphere.stl --size 0.03 --remesh
    --keep-surface -o ${_out}/bad.vtu STDERR "--remesh and --keep-surface contradict each other"
    FIXTURE_REQUIRED meshing_sphere_stl)
  file(WRITE ${_out}/open.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\n")
  pliant_meshing_cli_test(err_open_surface RC 2 ARGS mesh ${_out}/open.obj --no-repair -o ${_out}/bad.vtu
    STDERR "open.obj: surface is not closed: edge [0-9]+-[0-9]+ belongs only to triangle")
  # Repair (the default) fills the missing face, a hole of 3 edges, and says so on one line.
  pliant_meshing_cli_test(repair_hole RC 0 ARGS mesh ${_out}/open.obj -o ${_out}/repaired.vtu
    STDOUT "notice: repair: filled 1 hole with 1 triangle\n.*slivers: [0-9]+ tets under 10° after gmsh"
    FILES ${_out}/repaired.vtu)
  # A hole larger than --max-hole-edges is an opening of the shape: refused, naming the input's edge.
  pliant_meshing_cli_test(err_hole_too_big RC 2 ARGS mesh ${_out}/open.obj --max-hole-edges 2 -o ${_out}/bad.vtu
    STDERR "open.obj: surface is not closed: edge [0-9]+-[0-9]+ belongs only to triangle [0-9]+ \\(3 open edges\\) \\(repair could not fix it. after repair: surface is not closed")
  file(WRITE ${_out}/duplicated.obj "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\nf 2 4 1\nf 4 2 3\n")
  pliant_meshing_cli_test(repair_duplicates RC 0 ARGS mesh ${_out}/duplicated.obj -o ${_out}/dedup.vtu
    STDOUT "notice: repair: removed 2 duplicate triangles\n" FILES ${_out}/dedup.vtu)
  pliant_meshing_cli_test(err_min_dihedral RC 2 ARGS mesh ${_out}/open.obj --min-dihedral 70 -o ${_out}/bad.vtu
    STDERR "--min-dihedral")
  pliant_meshing_cli_test(err_min_dihedral_nan RC 2 ARGS mesh ${_out}/open.obj --min-dihedral nan -o ${_out}/bad.vtu
    STDERR "--min-dihedral")
  pliant_meshing_cli_test(err_max_hole_edges RC 2 ARGS mesh ${_out}/open.obj --max-hole-edges -1 -o ${_out}/bad.vtu
    STDERR "--max-hole-edges")
  pliant_meshing_cli_test(err_max_hole_edges_fraction RC 2 ARGS mesh ${_out}/open.obj --max-hole-edges 2.5
    -o ${_out}/bad.vtu STDERR "--max-hole-edges")
  # Errors name nodes and triangles as the input file numbers them (OBJ: from 1), not as reading
  # (unused vertex 1 dropped) and welding (vertex 6 is vertex 2 again) renumbered them.
  set(_verts "v 9 9 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 0 0\n")
  file(WRITE ${_out}/renumbered.obj "${_verts}f 2 4 3\nf 6 3 5\nf 3 4 5\n")
  pliant_meshing_cli_test(err_file_numbering RC 2 ARGS mesh ${_out}/renumbered.obj --no-repair -o ${_out}/bad.vtu
    STDERR "renumbered.obj: surface is not closed: edge 2-4 belongs only to triangle 1 \\(3 open edges\\)")
  file(WRITE ${_out}/collapsed.obj "${_verts}f 2 4 3\nf 3 6 2\n")
  pliant_meshing_cli_test(err_file_numbering_repeat RC 2 ARGS mesh ${_out}/collapsed.obj --no-repair -o ${_out}/bad.vtu
    STDERR "collapsed.obj: surface triangle 2 repeats a node \\(3, 2, 2\\)")
  # With --no-repair, a closed shell that passes through itself is refused before gmsh runs, naming the
  # first crossing pair (OBJ face numbers, from 1), where, and how many.
  pliant_meshing_cli_test(err_self_intersecting RC 2 ARGS mesh
    ${PROJECT_SOURCE_DIR}/tests/data/bad/obj_self_intersecting.obj --no-repair -o ${_out}/bad.vtu
    STDERR "obj_self_intersecting.obj: surface intersects itself: triangles [0-9]+ and [0-9]+ cross near \\([-0-9.e]+, [-0-9.e]+, [-0-9.e]+\\) m \\([0-9]+ crossing pairs in all\\)")
  # Repair cuts crossings out only where that stays local: this 48-triangle sphere would lose most of
  # itself, so it is refused as before.
  pliant_meshing_cli_test(err_self_intersecting_unrepairable RC 2 ARGS mesh
    ${PROJECT_SOURCE_DIR}/tests/data/bad/obj_self_intersecting.obj -o ${_out}/bad.vtu
    STDERR "crossing pairs in all\\) \\(repair could not fix it. after repair: surface intersects itself")
  pliant_meshing_cli_test(err_missing_file RC 2 ARGS mesh ${_out}/does_not_exist.stl -o ${_out}/bad.vtu
    STDERR "does_not_exist.stl")
else()
  pliant_meshing_cli_test(err_no_gmsh RC 2 ARGS mesh ${_out}/sphere.stl -o ${_out}/bad.vtu STDERR "has no gmsh")
endif()

# A misspelt shape names the shapes there are.
pliant_meshing_cli_test(err_unknown_shape RC 2 ARGS mesh cube -o ${_out}/bad.vtu
  STDERR "mesh: unknown shape 'cube' \\(shapes: box, tube, ball, disc, rect, hexdisc, icosphere. or a surface file")
