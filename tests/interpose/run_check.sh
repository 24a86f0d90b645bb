#!/bin/sh
# Runs check_interpose.py with the Python given, or skips (77) with the reason when there is none.
python="$1"
shift
if ! command -v "$python" >/dev/null 2>&1; then
  echo "SKIP: no python3 to run $1 (it parses the trace JSON with Python's json module)"
  exit 77
fi
exec "$python" "$@"
