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

``scripts/build-wheel.sh`` sets ``$GRAPHOPT_WHEEL_STAGE`` to a directory
holding the self-contained library and what goes with it (``lib/``: the
library, LLVM's OpenMP runtime, the CUDA libraries; ``include/``: the ODS
and PDLL files that rule files include); its files are bundled instead, and
the wheel is tagged ``py3-none`` (the package reaches the library through
ctypes: one wheel serves every Python 3), for the script to give it its
manylinux platform tag.
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
        stage = os.environ.get("GRAPHOPT_WHEEL_STAGE")
        if stage:
            self.copy_stage(Path(stage))
            return
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


    def copy_stage(self, stage):
        if not (stage / "lib" / LIB_NAME).is_file():
            raise SystemExit(f"GRAPHOPT_WHEEL_STAGE={stage} has no lib/{LIB_NAME}")
        package = Path(self.build_lib) / "graphopt"
        # Only the stage's files (an earlier build may have left others).
        shutil.rmtree(package / "_lib", ignore_errors=True)
        shutil.rmtree(package / "include", ignore_errors=True)
        for sub, dest in (("lib", "_lib"), ("include", "include")):
            if (stage / sub).is_dir():
                shutil.copytree(stage / sub, package / dest, dirs_exist_ok=True)


class BinaryDistribution(Distribution):
    """The wheel carries a native library: tag it for the platform."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": BuildPyWithNativeLibrary}
if os.environ.get("GRAPHOPT_WHEEL_STAGE"):
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools < 70.1
        from wheel.bdist_wheel import bdist_wheel

    class PythonIndependentWheel(bdist_wheel):
        """py3-none-<platform>: no extension module, one native library."""

        def get_tag(self):
            return "py3", "none", super().get_tag()[2]

    cmdclass["bdist_wheel"] = PythonIndependentWheel

setup(cmdclass=cmdclass, distclass=BinaryDistribution)
