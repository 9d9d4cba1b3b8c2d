# lit configuration for kopt's command-line tests.
import os
import shutil

import lit.formats

config.name = "kopt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cu"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kopt_build_dir, "test", "lit")

# Tests see only what they set: no inherited KOPT_* or CUDA_* configuration.
for var in list(config.environment):
    if var.startswith("KOPT_") or var in ("CUDA_PATH", "CUDA_HOME"):
        del config.environment[var]
config.environment["PATH"] = os.pathsep.join(
    [config.filecheck_dir, os.environ.get("PATH", "")])

nvcc = os.path.join(config.cuda_bin_dir, "nvcc")
# Longer names first: lit replaces in order, and %kopt is a prefix of the others.
config.substitutions.append(("%kopt_build_dir", config.kopt_build_dir))
config.substitutions.append(("%kopt_version", config.kopt_version))
config.substitutions.append(("%kcc", os.path.join(config.kopt_bin_dir, "kcc")))
config.substitutions.append(
    ("%pragma_corpus", os.path.join(config.kopt_bin_dir, "kopt-pragma-corpus")))
config.substitutions.append(
    ("%kopt_cache_stress", os.path.join(config.kopt_bin_dir, "kopt-cache-stress")))
config.substitutions.append(
    ("%kopt_recording_write", os.path.join(config.kopt_bin_dir, "kopt-recording-write")))
config.substitutions.append(
    ("%kopt_llm_check", os.path.join(config.kopt_bin_dir, "kopt-llm-check")))
config.substitutions.append(
    ("%kopt_llm_loop", os.path.join(config.kopt_bin_dir, "kopt-llm-loop")))
config.substitutions.append(
    ("%kopt_fake_worker", os.path.join(config.kopt_bin_dir, "kopt-fake-worker")))
config.substitutions.append(("%kopt_splice", os.path.join(config.kopt_bin_dir, "kopt-splice")))
config.substitutions.append(("%kopt_plugin", config.kopt_plugin))
config.substitutions.append(("%kopt", os.path.join(config.kopt_bin_dir, "kopt")))
config.substitutions.append(("%nvcc", nvcc))
config.substitutions.append(("%cmake", config.cmake))
# The host compiler, for running transformed kernels on the CPU (Inputs/emulation).
config.substitutions.append(("%cxx", config.cxx))
config.substitutions.append(("%{env_path}", config.environment["PATH"]))
config.substitutions.append(("%python", config.python))

if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
# The NVIDIA driver (a GPU machine): tests of what kopt does where it loads.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
# Real servers for the remote-cache tests (test/lit/remote), from Debian's packages.
config.substitutions.append(
    ("%remote_server", config.python + " " +
     os.path.join(config.test_source_root, "Inputs", "remote", "server.py")))
if shutil.which("redis-server"):
    config.available_features.add("redis-server")
if shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK):
    config.available_features.add("nginx")

# A real browser for the report's page (test/lit/report): Debian's chromium,
# headless. Tests that need it are UNSUPPORTED only where it cannot start.
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    import subprocess
    try:
        started = subprocess.run([chromium, "--headless", "--no-sandbox", "--version"],
                                 capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        started = False
    if started:
        config.available_features.add("chromium")
        config.substitutions.append(("%chromium", chromium))

# clang++ in CUDA mode for CUDA 13, as kopt's own front end parses (see
# clang-plugin/parse/CudaParseSetup.cpp): kopt's shims, CUDA's cccl headers, and no
# warning that the toolkit is newer than clang knows.
cuda_root = os.path.dirname(config.cuda_bin_dir)
config.substitutions.append(("%clang_cuda", " ".join([
    config.clangxx, "-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + cuda_root,
    "-isystem", os.path.join(config.kopt_build_dir, "lib", "kopt", "include-shims"),
    "-isystem", os.path.join(cuda_root, "include", "cccl"), "-Wno-unknown-cuda-version"])))
if config.clangxx and os.access(config.clangxx, os.X_OK) and os.path.exists(config.kopt_plugin):
    config.available_features.add("clang-plugin")
if shutil.which("FileCheck", path=config.environment["PATH"]) is None:
    lit_config.fatal("FileCheck not found in " + config.filecheck_dir)
