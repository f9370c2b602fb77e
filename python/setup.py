"""Bundles the native library into the package at build time.

``pip install python/`` copies ``libGraphOpt.so`` and the compiler library
it loads, ``libGraphOptCompiler.so``, from the build tree (by
default ``../build/lib``; ``$GRAPHOPT_BUILD_DIR/lib`` or the file named by
``$GRAPHOPT_LIBRARY`` when set) into ``graphopt/_lib/`` of the built package,
so that the installed package needs no environment variables. The CUDA
runtime library and the emulated driver (built when the CUDA toolkit was
found) are copied next to it: the CUDA target looks for them there. Editable
installs (``pip install -e python/``) copy nothing: they use the build tree
next to the sources. Metadata lives in pyproject.toml.
"""

import os
import shutil
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LIB_NAME = "libGraphOpt.so"
# What libGraphOpt.so loads from its own directory ($ORIGIN).
COMPANION_LIBS = ("libGraphOptCompiler.so",)
# Optional companions of libGraphOpt.so (the CUDA target's).
CUDA_LIBS = ("libGraphOptCUDARuntime.so", "libGraphOptCUDAEmulator.so")


def find_native_library():
    if os.environ.get("GRAPHOPT_LIBRARY"):
        return Path(os.environ["GRAPHOPT_LIBRARY"])
    build_dir = Path(os.environ.get("GRAPHOPT_BUILD_DIR", HERE.parent / "build"))
    return build_dir / "lib" / LIB_NAME


class BuildPyWithNativeLibrary(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # editable: _native.py finds ../build/lib at run time
        lib = find_native_library()
        if not lib.is_file():
            self.warn(f"{lib} not found: the package is built without the "
                      "native library (run scripts/setup.sh first, or use the "
                      "package from the source tree)")
            return
        dest = Path(self.build_lib) / "graphopt" / "_lib"
        dest.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(lib), str(dest / LIB_NAME))
        for name in COMPANION_LIBS:
            self.copy_file(str(lib.parent / name), str(dest / name))
        for name in CUDA_LIBS:
            if (lib.parent / name).is_file():
                self.copy_file(str(lib.parent / name), str(dest / name))


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for the platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithNativeLibrary},
      distclass=BinaryDistribution)
