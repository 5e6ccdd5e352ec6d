#!/usr/bin/env bash
# `make dist`: build the sdist and the wheel with `python -m build`, then check
# both end to end, each in a fresh virtual environment outside the repository:
#   1. the wheel is platform-specific and holds the compiled cores (every module of
#      usotsuki._native.MODULES as an extension, mypyc's shared library, the build stamp);
#      installed, it runs them compiled and passes the conformance records;
#   2. the sdist installed with a C compiler runs compiled, and with none (CC=false) runs
#      the pure-Python cores; both pass the conformance records.
# The conformance records are the repository's copy (tests/conformance, b13 too).
#
#   scripts/check_dist.sh [--wheel-only]     (PY, UV, PYTHON, OUT may be set)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}      # has `build` (the dev extra)
UV=${UV:-$ROOT/.uv/bin/uv}            # optional: without it, venv and pip
PYTHON=${PYTHON:-python3}             # the interpreter the fresh environments use
OUT=${OUT:-$ROOT/dist}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export UV_PYTHON_DOWNLOADS=never

say() { printf '\n== %s\n' "$*"; }

fresh_venv() {  # fresh_venv DIR
	if [ -x "$UV" ]; then "$UV" venv -q -p "$PYTHON" "$1"
	else "$PYTHON" -m venv "$1"; fi
}

# install VENV ARGS...: no cache, so an sdist is really built again (uv would otherwise
# reuse the wheel it built from the same sdist, compiled or not).
install() {
	local venv=$1; shift
	if [ -x "$UV" ]; then "$UV" pip install -q --no-cache -p "$venv/bin/python" "$@"
	else "$venv/bin/python" -m pip install -q --no-cache-dir --disable-pip-version-check "$@"; fi
}

# check VENV compiled|pure: which cores run there, then the conformance records with that
# environment's `usotsuki replay` (from $WORK: nothing of the repository on sys.path).
check() {
	local venv=$1 want=$2
	(cd "$WORK" && "$venv/bin/python" - "$want" <<-'EOF'
		import sys
		import usotsuki
		import usotsuki._native as n
		print(f"  usotsuki from {usotsuki.__file__}")
		print(f"  cores: {n.describe()}")
		if n.compiled() != (sys.argv[1] == "compiled"):
		    sys.exit(f"  expected the {sys.argv[1]} cores")
		EOF
	)
	# the schema's migrations ship too (the server extra is installed with the package): a
	# new database upgraded to the code's revision
	(cd "$WORK" && "$venv/bin/usotsuki" db upgrade --db "$venv/schema.sqlite3" \
		&& "$venv/bin/usotsuki" db current --db "$venv/schema.sqlite3") | sed 's/^/  /'
	for dir in "$ROOT/tests/conformance" "$ROOT/tests/conformance/b13"; do
		(cd "$WORK" && "$PY" "$ROOT/tests/conformance/check.py" --dir "$dir" \
			--cmd "$venv/bin/usotsuki replay {file} --json") | tail -n 1 | sed 's/^/  /'
	done
}

say "python -m build (sdist, then the wheel from it)"
rm -rf "$OUT"
(cd "$ROOT" && "$PY" -m build --outdir "$OUT" . > "$WORK/build.log" 2>&1) \
	|| { tail -n 40 "$WORK/build.log"; exit 1; }
grep -E "usotsuki: .*pure-Python" "$WORK/build.log" && { echo "the wheel fell back to pure"; exit 1; }
ls -l "$OUT"
wheel=$(ls "$OUT"/usotsuki-*.whl)
sdist=$(ls "$OUT"/usotsuki-*.tar.gz)

say "the wheel's compiled modules"
"$PY" - "$wheel" "$ROOT/src/usotsuki/_native.py" <<'EOF'
import runpy, sys, zipfile
wheel, native = sys.argv[1], runpy.run_path(sys.argv[2])
names = zipfile.ZipFile(wheel).namelist()
tag = wheel.rsplit("-", 3)[-3:]
print(f"  tags: {'-'.join(tag)}")
missing = []
for module in native["MODULES"]:
    stem = module.replace(".", "/")
    found = [n for n in names if n.startswith(stem + ".") and n.endswith(".so")]
    print(f"  {module}: {found[0] if found else 'MISSING'}")
    missing += [] if found else [module]
shared = [n for n in names if n.startswith(native["GROUP"] + "__mypyc") and n.endswith(".so")]
stamp = "usotsuki/" + native["STAMP"]
print(f"  shared library: {shared[0] if shared else 'MISSING'}; stamp: "
      f"{'present' if stamp in names else 'MISSING'}")
if missing or not shared or stamp not in names or wheel.endswith("-none-any.whl"):
    sys.exit("  the wheel is not the compiled one")
EOF

say "the package's data files in the wheel (every tracked file under src/ but Python)"
data=$(cd "$ROOT" && git ls-files src/usotsuki | grep -v '\.py$' | sed 's|^src/||')
"$PY" - "$wheel" $data <<'EOF'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = [path for path in sys.argv[2:] if path not in names]
print(f"  {len(sys.argv) - 2 - len(missing)} of {len(sys.argv) - 2} present"
      + (f"; missing: {', '.join(missing)}" if missing else ""))
sys.exit(1 if missing else 0)
EOF

say "the wheel in a fresh environment"
fresh_venv "$WORK/wheel"
install "$WORK/wheel" "usotsuki[server] @ file://$wheel"
check "$WORK/wheel" compiled

[ "${1:-}" = "--wheel-only" ] && exit 0

say "the sdist with a C compiler"
fresh_venv "$WORK/sdist"
install "$WORK/sdist" "usotsuki[server] @ file://$sdist"
check "$WORK/sdist" compiled

say "the sdist with no C compiler (CC=false)"
fresh_venv "$WORK/sdist-cc"
CC=false install "$WORK/sdist-cc" "usotsuki[server] @ file://$sdist"
check "$WORK/sdist-cc" pure

say "dist: all checks passed"
