"""The loop the manifest checkers share (check_written.py, compress_matrix.py, dict_chunks.py).

`run(check)` reads the JSON list of entries named by the first argument, calls `check(entry)` on
each, reports every failure rather than stopping at the first, prints the summary line
`N passed, M failed` (which the Rust side looks for) and exits 1 when anything failed.
"""
import json
import sys


def run(check, verbose=False):
    entries = json.load(open(sys.argv[1]))
    failed = 0
    for e in entries:
        try:
            check(e)
            if verbose:
                print(f"ok     {e['name']}")
        except Exception as ex:  # report every entry, then fail
            failed += 1
            print(f"FAILED {e['name']}: {type(ex).__name__}: {ex}")
    print(f"{len(entries) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
