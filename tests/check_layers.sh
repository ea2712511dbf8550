#!/bin/sh
# The layering of src/: no include or call up a layer, no cycle between files
# (check_layers.py says how).  Usage: tests/check_layers.sh [BUILD]  (default build;
# without its objects only the includes are checked).
exec /usr/bin/python3 "$(dirname "$0")/check_layers.py" "$@"
