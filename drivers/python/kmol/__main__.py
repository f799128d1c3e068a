"""python3 -m kmol ...: the kmol command that came with this module, with these arguments."""
import os
import shutil
import sys
import sysconfig
from pathlib import Path


def command():
    """The kmol executable: beside the package (a build tree links it there), in this
    interpreter's scripts directory (pip install, cmake --install), or on PATH."""
    for candidate in (Path(__file__).resolve().parent / "bin" / "kmol",
                      Path(sysconfig.get_path("scripts")) / "kmol"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("kmol")
    if found:
        return found
    sys.exit("kmol: the kmol command is not installed beside this module (pip install . installs "
             "both)")


def main():
    exe = command()
    sys.stdout.flush()
    os.execv(exe, ["kmol", *sys.argv[1:]])


if __name__ == "__main__":
    main()
