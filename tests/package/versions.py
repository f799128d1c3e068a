"""versions.py KMOL_EXE LIBKMOL_C: one version everywhere. The CMake project's version (the one
source, CMakeLists.txt) must be what import kmol, the kmol command, python3 -m kmol, the C API's
kmol_version() and, when pip installed it, the package's metadata say. Run it with the
interpreter whose kmol is checked."""
import ctypes
import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import kmol

exe, library = (str(Path(arg).resolve()) for arg in sys.argv[1:3])
cmake = (Path(__file__).resolve().parents[2] / "CMakeLists.txt").read_text()
want = re.search(r"project\(kmol VERSION ([0-9][0-9.]*)", cmake).group(1)


def command(*args):
    done = subprocess.run(args, capture_output=True, text=True, cwd="/")
    assert done.returncode == 0, f"{' '.join(args)}: exit {done.returncode}: {done.stderr}"
    return done.stdout.strip()


c_api = ctypes.CDLL(library)
c_api.kmol_version.restype = ctypes.c_char_p
said = {
    "kmol.__version__": kmol.__version__,
    "kmol --version": command(exe, "--version"),
    "python3 -m kmol --version": command(sys.executable, "-m", "kmol", "--version"),
    "kmol_version()": c_api.kmol_version().decode(),
}
try:
    said["pip metadata"] = importlib.metadata.version("kmol")
except importlib.metadata.PackageNotFoundError:
    pass  # the build tree's module: not installed by pip
wrong = {k: v for k, v in said.items() if v != want}
if wrong:
    sys.exit(f"versions: CMakeLists.txt says {want}, but {wrong}")
print(f"kmol {want}: {', '.join(said)} agree")
