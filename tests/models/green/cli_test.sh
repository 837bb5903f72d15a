#!/usr/bin/env bash
# End-to-end check of `pliant precompute` and `pliant info FILE.green`: build, up-to-date detection,
# stale and damaged files rebuilt, memory refusal, one-line errors with exit status 2.
set -u
pliant=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export OMP_WAIT_POLICY=passive OPENBLAS_NUM_THREADS=1
failures=0
check() {  # check DESCRIPTION CONDITION...
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
out=$dir/beam.green
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin --E 1e5 --nu 0.3 -o "$out" --threads 2 >"$dir/log1" 2>&1
check "precompute exits 0" test $? -eq 0
check "file written" test -s "$out"
check "memory printed" grep -q "memory: about" "$dir/log1"
check "custom material printed" grep -q "material: custom, E = 1e+05 Pa, nu = 0.3" "$dir/log1"
"$pliant" info "$out" >"$dir/info" 2>&1
check "info exits 0" test $? -eq 0
check "info names the surface" grep -q "surface  .* nodes" "$dir/info"
"$pliant" info --json "$out" >"$dir/info.json" 2>&1 || "$pliant" info "$out" --json >"$dir/info.json" 2>&1
check "info json has surface_nodes" grep -q '"surface_nodes"' "$dir/info.json"
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin --E 1e5 --nu 0.3 -o "$out" >"$dir/log2" 2>&1
check "second run is up to date" grep -q "up to date" "$dir/log2"
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin --E 2e5 --nu 0.3 -o "$out" >"$dir/log3" 2>&1
check "stale material detected and rebuilt" grep -q "stale: built for a different material" "$dir/log3"
# Flip one byte in the middle of the block: damaged, reported by info, rebuilt by precompute.
size=$(stat -c %s "$out")
printf '\x55' | dd of="$out" bs=1 seek=$((size / 2)) conv=notrunc status=none
"$pliant" info "$out" >"$dir/info2" 2>&1
rc=$?
check "info on damaged file exits 2" test $rc -eq 2
check "damage message is one line" test "$(wc -l <"$dir/info2")" -eq 1
check "checksum named" grep -q "checksum mismatch" "$dir/info2"
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin --E 2e5 --nu 0.3 -o "$out" >"$dir/log4" 2>&1
check "damaged file rebuilt" grep -q "checksum mismatch.*rebuilding" "$dir/log4"
"$pliant" info "$out" >/dev/null 2>&1
check "rebuilt file is valid" test $? -eq 0
head -c 100 "$out" >"$dir/short.green"
"$pliant" info "$dir/short.green" >"$dir/info3" 2>&1
check "truncated file exits 2" test $? -eq 2
check "truncation named" grep -q "truncated" "$dir/info3"
"$pliant" precompute box:1,0.2,0.2,30,6,6 --fix xmin -o "$dir/big.green" --max-memory 0.001 >"$dir/log5" 2>&1
check "memory limit refuses with exit 2" test $? -eq 2
check "no file written on refusal" test ! -e "$dir/big.green"
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix x\<-5 -o "$dir/x.green" >"$dir/log6" 2>&1
check "empty region exits 2" test $? -eq 2
check "empty region named" grep -q "selects no nodes" "$dir/log6"
"$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin --material unobtainium -o "$dir/x.green" >"$dir/log7" 2>&1
check "unknown material exits 2" test $? -eq 2
"$pliant" precompute box:1,0.2,0.2,8,2,2 --control xmin --control xmax -o "$dir/c.green" >"$dir/log8" 2>&1
check "control elements only" test $? -eq 0
check "default material printed" grep -q "material: rubber (the default), E = 1.2e+06 Pa, nu = 0.45" "$dir/log8"
"$pliant" precompute box:1,0.2,0.2,4,1,1 --fix xmin --material nikitina2003_rubber -o "$dir/n.green" >"$dir/log9" 2>&1
check "preset name printed" grep -q "material: nikitina2003_rubber, E = 1.391e+08 Pa" "$dir/log9"
"$pliant" precompute --help >"$dir/help" 2>&1
check "help names the default material" grep -q "material TEXT=rubber .*(default rubber: E = 1.2 MPa" "$dir/help"
check "help lists presets from the table" grep -q "sylgard_184" "$dir/help"
check "unknown material lists the presets" grep -q "ecoflex_00_30" "$dir/log7"
# --compress: a hierarchical block; info reports the tolerance and the ratio; a dense file asked
# for compressed is rebuilt; a bad tolerance is one line and exit 2.
cout=$dir/tube.green
"$pliant" precompute tube:0.07,0.1,1,16,15,3 --fix zmin --E 1e5 --nu 0.3 -o "$cout" --threads 2 \
  --compress 1e-3 >"$dir/clog1" 2>&1
check "compressed precompute exits 0" test $? -eq 0
check "compressed ratio printed" grep -q "compressed block: .*smaller than dense at tolerance 0.001" "$dir/clog1"
"$pliant" info "$cout" >"$dir/cinfo" 2>&1
check "info reports tolerance and ratio" grep -q "hierarchical (tolerance 0.001.*compression ratio" "$dir/cinfo"
"$pliant" info --json "$cout" >"$dir/cinfo.json" 2>&1 || "$pliant" info "$cout" --json >"$dir/cinfo.json" 2>&1
check "info json has compression_ratio" grep -q '"compression_ratio"' "$dir/cinfo.json"
"$pliant" precompute tube:0.07,0.1,1,16,15,3 --fix zmin --E 1e5 --nu 0.3 -o "$cout" --compress 1e-3 >"$dir/clog2" 2>&1
check "compressed second run is up to date" grep -q "up to date" "$dir/clog2"
"$pliant" precompute tube:0.07,0.1,1,16,15,3 --fix zmin --E 1e5 --nu 0.3 -o "$cout" --compress 1e-2 >"$dir/clog3" 2>&1
check "other tolerance rebuilt" grep -q "stale: stored compressed to 0.001, asked for --compress 0.01" "$dir/clog3"
for bad in 0 -1e-3 nan 1.5; do
  "$pliant" precompute box:1,0.2,0.2,8,2,2 --fix xmin -o "$dir/bad.green" --compress "$bad" >"$dir/cbad" 2>&1
  rc=$?
  check "--compress $bad exits 2" test $rc -eq 2
  check "--compress $bad is one line" test "$(wc -l <"$dir/cbad")" -eq 1
  check "--compress $bad writes nothing" test ! -e "$dir/bad.green"
done
exit $failures
