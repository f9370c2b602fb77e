# -*- Python -*-
# lit configuration for graphopt. Tests run the built tools; execution tests
# compare with numbers computed independently by NumPy (test/lib/reference.py).

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "GRAPHOPT"
# The internal shell: portable, and the only choice in newer lit releases.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".py"]
# e2e/ is the Python e2e suite (cases, not lit tests): Python/e2e.test runs it.
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "lib", "Inputs",
                   "consumer", "e2e"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.graphopt_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%graphopt_lib", config.graphopt_lib_dir))
config.substitutions.append(("%graphopt_src", config.graphopt_src_root))
config.substitutions.append(("%graphopt_obj", config.graphopt_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(
    ("%reference", "%s %s" % (config.python_executable,
                              os.path.join(config.test_source_root, "lib",
                                           "reference.py"))))
config.substitutions.append(("%python", config.python_executable))
# %graphopt_python: the Python package in-tree (python/), using this build's
# libGraphOpt.so. In a build with AddressSanitizer (scripts/test.sh
# --sanitize) the instrumented library is loaded into an uninstrumented
# Python: ASan's runtime is preloaded (it must come first) into the
# interpreter itself (not a launcher script: pyenv's shims are bash scripts,
# which the runtime would instrument instead), Python's allocator is
# replaced by malloc so that ASan sees it, and leak checking is off (Python
# keeps memory until exit on purpose). test/PythonSanitized is the sample
# run that way; test/Python stays out of sanitized runs.
_python_env = ""
_interpreter = config.python_executable
_sanitizer = getattr(config, "llvm_use_sanitizer", "") or ""
if "Undefined" in _sanitizer:
    config.available_features.add("ubsan")
if "Address" in _sanitizer:
    config.available_features.add("asan")
    _runtime = subprocess.run([config.c_compiler,
                               "-print-file-name=libclang_rt.asan-x86_64.so"],
                              capture_output=True, text=True).stdout.strip()
    _interpreter = subprocess.run(
        [config.python_executable, "-c", "import sys; print(sys.executable)"],
        capture_output=True, text=True).stdout.strip() or config.python_executable
    _python_env = ("LD_PRELOAD=%s PYTHONMALLOC=malloc "
                   "ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "
                   "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 " % _runtime)
# The CUDA checks over every Integration test (cuda-compile.test,
# cuda-emulate.test) take a third of the files in the sanitizer run, which
# is sampled to keep CI short; the main run checks all of them.
config.substitutions.append(
    ("%cuda_check_sample", "--sample 3" if "Address" in _sanitizer else ""))
# `lit --param graphopt_library=PATH` runs the Python tests against another
# build of the library (scripts/build-wheel.sh --test: the wheel's
# self-contained one).
_library = lit_config.params.get("graphopt_library")
config.substitutions.append(
    ("%graphopt_python", "env %sPYTHONPATH=%s GRAPHOPT_BUILD_DIR=%s %s%s" % (
        _python_env, os.path.join(config.graphopt_src_root, "python"),
        config.graphopt_obj_root,
        "GRAPHOPT_LIBRARY=%s " % _library if _library else "",
        _interpreter)))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP",
                                     "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"])
llvm_config.use_default_substitutions()
# Tests compile from scratch: the persistent compile cache
# (docs/CompileCache.md) is off unless a test turns it on for itself.
config.environment["GRAPHOPT_CACHE_DIR"] = "off"

tool_dirs = [config.graphopt_tools_dir, config.llvm_tools_dir]
tools = ["graph-opt", "graph-run", "mlir-opt", "mlir-translate", "llc", "llvm-nm",
         "llvm-objdump",
         "llvm-readelf"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# graph-apply-pdl-patterns runs mlir-pdll to translate .pdll rule files; the
# tests that give it one declare REQUIRES: mlir-pdll.
if config.mlir_pdll and os.access(config.mlir_pdll, os.X_OK):
    config.available_features.add("mlir-pdll")
    config.substitutions.append(("%mlir_pdll", config.mlir_pdll))

# Host CPU features, for tests that check vector code.
try:
    flags = open("/proc/cpuinfo").read()
    if " avx512f" in flags:
        config.available_features.add("avx512")
    if " avx2" in flags:
        config.available_features.add("avx2")
    if " avx512_vnni" in flags:
        config.available_features.add("avx512vnni")
    # AMX-INT8 tiles, where Linux grants the tile state on request
    # (arch_prctl ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA; kernels since
    # 5.16): graph-cpu-quantized-matmul uses them under the same condition.
    if " amx_int8" in flags and " amx_tile" in flags:
        import ctypes
        try:
            if ctypes.CDLL(None, use_errno=True).syscall(158, 0x1023, 18) == 0:
                config.available_features.add("amx-int8")
        except (OSError, AttributeError):
            pass
except OSError:
    pass

# pip can build the package offline (--no-build-isolation): setuptools with
# bdist_wheel (built in since setuptools 70.1, else the wheel package).
_PIP_CHECK = """
import setuptools, pip
try:
    import setuptools.command.bdist_wheel
except ImportError:
    import wheel
"""
try:
    if subprocess.run([config.python_executable, "-c", _PIP_CHECK],
                      capture_output=True, timeout=60).returncode == 0:
        config.available_features.add("python-pip")
except Exception:
    pass

# NumPy's bfloat16 (test/Python/bf16.test): the ml_dtypes package, which
# onnx (scripts/setup.sh) installs.
try:
    if subprocess.run([config.python_executable, "-c",
                       "import importlib.util, sys; "
                       "sys.exit(importlib.util.find_spec('ml_dtypes') is None)"],
                      capture_output=True, timeout=60).returncode == 0:
        config.available_features.add("ml_dtypes")
except Exception:
    pass

# PyTorch's PT2E quantization (test/Python/pt2e.test): torchao, which
# scripts/setup.sh installs where pip can (imported here: a torchao that
# does not match the installed PyTorch fails at import).
try:
    if subprocess.run([config.python_executable, "-c",
                       "import torchao.quantization.pt2e.quantize_pt2e"],
                      capture_output=True, timeout=120).returncode == 0:
        config.available_features.add("torchao")
except Exception:
    pass

# The self-contained wheel (scripts/build-wheel.sh, test/Python/wheel.test):
# lld links it from MLIR's static archives; auditwheel and wheel tag it;
# its test hides /usr/lib/llvm-22 in a private mount namespace (root).
_static_mlir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib",
                            "libMLIRIR.a")
if shutil.which("ld.lld") and os.path.exists(_static_mlir):
    try:
        if subprocess.run([config.python_executable, "-c",
                           "import auditwheel, wheel"],
                          capture_output=True, timeout=60).returncode == 0 \
                and subprocess.run(["unshare", "-m", "true"],
                                   capture_output=True,
                                   timeout=60).returncode == 0:
            config.available_features.add("wheel-tools")
    except Exception:
        pass

# The CUDA runtime library (libGraphOptCUDARuntime.so) is built when the
# CUDA toolkit was found: graph-run --target=cuda can compile (and, with a
# GPU, run) programs.
if config.graphopt_has_cuda_runtime in ("ON", "TRUE", "1"):
    config.available_features.add("cuda-runtime")

# GPU tests declare REQUIRES: cuda-gpu; set only where the CUDA driver loads
# and reports a device (asked through the driver API itself, as the runtime
# library does; nvidia-smi may be missing where the driver is present).
_CUDA_PROBE = """
import ctypes, sys
cuda = ctypes.CDLL("libcuda.so.1")
n = ctypes.c_int(0)
sys.exit(0 if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0 else 1)
"""
try:
    if subprocess.run([config.python_executable, "-c", _CUDA_PROBE],
                      capture_output=True, timeout=60).returncode == 0:
        config.available_features.add("cuda-gpu")
except Exception:
    pass

# CUDA device-code tests that assemble PTX into cubin need ptxas (the CUDA
# toolkit); MLIR's gpu-module-to-binary looks for it on PATH or CUDA_HOME.
_ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas")
    else None)
if _ptxas:
    config.available_features.add("ptxas")
    config.environment["CUDA_HOME"] = os.path.dirname(os.path.dirname(_ptxas))

# SASS checks need nvdisasm: on PATH, in the CUDA toolkit, or from the
# nvidia-cuda-nvdisasm wheel scripts/setup.sh installs.
def _find_nvdisasm():
    found = shutil.which("nvdisasm")
    if found:
        return found
    if _ptxas and os.path.exists(os.path.join(os.path.dirname(_ptxas), "nvdisasm")):
        return os.path.join(os.path.dirname(_ptxas), "nvdisasm")
    # The wheel is installed for the tests' Python, which may not be lit's.
    try:
        out = subprocess.run(
            [config.python_executable, "-c",
             "import glob, os, nvidia; print(next(iter(sorted(p for r in "
             "nvidia.__path__ for p in glob.glob(os.path.join(r, '*', 'bin', "
             "'nvdisasm')))), ''))"],
            capture_output=True, text=True, timeout=60).stdout.strip()
        if out:
            return out
    except Exception:
        pass
    return None
_nvdisasm = _find_nvdisasm()
if _ptxas and _nvdisasm:
    config.available_features.add("nvdisasm")
    config.environment["GRAPHOPT_NVDISASM"] = _nvdisasm
