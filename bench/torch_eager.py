#!/usr/bin/env python3
"""PyTorch eager times for the problems of bench/kernels, measured live on the GPU.

Each problem is the operation of one kernel file (same name, shapes and dtype, float32),
written the way KernelBench's reference models write it. Each is timed with CUDA events:
3 warm-up calls, then the median of --runs calls (default 21). PyTorch's defaults stay
as they are (KernelBench's eager baseline uses them); the JSON records the TF32 flags.

usage: bench/torch_eager.py [--only NAME,...] [--runs N] [--out FILE.json] [--list]
Without PyTorch it says so and measures nothing (exit status 0); --list needs no torch.
The JSON: {"meta": {...}, "problems": {name: {"ms": median} or {"error": message}}}.
"""
import argparse
import json
import statistics
import sys

PROBLEMS = {}


def problem(make):
    """Registers make(torch) -> a callable running the problem once on the GPU."""
    PROBLEMS[make.__name__] = make
    return make


def u(torch, *shape):
    """Uniform in [-1, 1) on the GPU, as the kernels' hosts fill their inputs."""
    return torch.rand(*shape, device="cuda") * 2 - 1


def elementwise(name, op, shape=(4096, 393216)):
    def make(torch):
        x = u(torch, *shape)
        return lambda: op(torch, x)
    make.__name__ = name
    problem(make)


F = lambda torch: torch.nn.functional  # noqa: E731

elementwise("relu", lambda t, x: t.relu(x))
elementwise("leaky_relu", lambda t, x: F(t).leaky_relu(x, negative_slope=0.01))
elementwise("sigmoid", lambda t, x: t.sigmoid(x))
elementwise("tanh_act", lambda t, x: t.tanh(x))
elementwise("swish", lambda t, x: x * t.sigmoid(x))
elementwise("gelu", lambda t, x: F(t).gelu(x))
elementwise("softplus", lambda t, x: F(t).softplus(x))
elementwise("elu", lambda t, x: F(t).elu(x, alpha=1.0))
elementwise("hardtanh", lambda t, x: F(t).hardtanh(x, min_val=-1.0, max_val=1.0))
elementwise("new_gelu", lambda t, x: 0.5 * x * (1.0 + t.tanh(
    0.7978845608028654 * (x + 0.044715 * t.pow(x, 3.0)))), shape=(8192, 8192))
elementwise("scalar_mul", lambda t, x: x * 3.14, shape=(65536, 16384))


def matmul(name, a_shape, b_shape, op=lambda t, a, b: t.matmul(a, b)):
    def make(torch):
        a, b = u(torch, *a_shape), u(torch, *b_shape)
        return lambda: op(torch, a, b)
    make.__name__ = name
    problem(make)


matmul("matmul_square", (4096, 4096), (4096, 4096))
matmul("matmul_rect", (2048, 8192), (8192, 4096))
matmul("matmul_batched", (128, 512, 1024), (128, 1024, 2048), lambda t, a, b: t.bmm(a, b))
matmul("matvec", (2048, 262144), (262144, 1))
matmul("matmul_transposed_a", (8192, 2048), (8192, 4096), lambda t, a, b: t.matmul(a.T, b))
matmul("matmul_transposed_b", (512, 8192), (4096, 8192), lambda t, a, b: t.matmul(a, b.T))
matmul("matmul_3d", (16, 1024, 2048), (2048, 768))
matmul("matmul_diag", (4096,), (4096, 4096), lambda t, a, b: a.unsqueeze(1) * b)


@problem
def softmax(torch):
    x = u(torch, 4096, 65536)
    return lambda: torch.softmax(x, dim=1)


@problem
def log_softmax(torch):
    x = u(torch, 4096, 65536)
    return lambda: torch.log_softmax(x, dim=1)


@problem
def layer_norm(torch):
    x, g, b = u(torch, 16384, 4096), u(torch, 4096), u(torch, 4096)
    return lambda: F(torch).layer_norm(x, (4096,), g, b, 1e-5)


@problem
def layernorm_gelu(torch):
    x, g, b = u(torch, 16384, 4096), u(torch, 4096), u(torch, 4096)
    return lambda: F(torch).gelu(F(torch).layer_norm(x, (4096,), g, b, 1e-5))


@problem
def rms_norm(torch):
    x = u(torch, 112, 64, 512, 512)
    return lambda: x / torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + 1e-5)


@problem
def batch_norm(torch):
    x = u(torch, 64, 64, 512, 512)
    mean, gamma, beta = u(torch, 64), u(torch, 64), u(torch, 64)
    var = torch.rand(64, device="cuda") + 0.5
    return lambda: F(torch).batch_norm(x, mean, var, gamma, beta, training=False, eps=1e-5)


def reduction(name, op):
    def make(torch):
        x = u(torch, 128, 4096, 4095)
        return lambda: op(torch, x)
    make.__name__ = name
    problem(make)


reduction("sum_dim", lambda t, x: t.sum(x, dim=1, keepdim=True))
reduction("mean_dim", lambda t, x: t.mean(x, dim=1))
reduction("max_dim", lambda t, x: t.max(x, dim=1)[0])
reduction("argmax_dim", lambda t, x: t.argmax(x, dim=1))


@problem
def max_pool2d(torch):
    x = u(torch, 32, 64, 512, 512)
    return lambda: F(torch).max_pool2d(x, 4, stride=1, padding=1)


@problem
def avg_pool2d(torch):
    x = u(torch, 16, 64, 1024, 1024)
    return lambda: F(torch).avg_pool2d(x, 11)


@problem
def conv1d(torch):
    x, w = u(torch, 32, 64, 131072), u(torch, 128, 64, 3)
    return lambda: F(torch).conv1d(x, w)


@problem
def conv2d(torch):
    x, w, b = u(torch, 256, 3, 224, 224), u(torch, 96, 3, 11, 11), u(torch, 96)
    return lambda: F(torch).conv2d(x, w, b, stride=4, padding=2)


@problem
def conv2d_depthwise(torch):
    x, w = u(torch, 16, 64, 512, 512), u(torch, 64, 1, 3, 3)
    return lambda: F(torch).conv2d(x, w, groups=64)


@problem
def conv2d_relu_hardswish(torch):
    x, w, b = u(torch, 128, 8, 128, 128), u(torch, 64, 8, 3, 3), u(torch, 64)

    def run():
        z = torch.relu(F(torch).conv2d(x, w, b))
        return z * torch.clamp((z + 3) / 6, 0, 1)
    return run


@problem
def conv2d_relu_maxpool(torch):
    x, w, b = u(torch, 64, 8, 128, 128), u(torch, 64, 8, 3, 3), u(torch, 64)
    return lambda: F(torch).max_pool2d(torch.relu(F(torch).conv2d(x, w, b)), 2)


@problem
def cumsum(torch):
    x = u(torch, 32768, 32768)
    return lambda: torch.cumsum(x, dim=1)


@problem
def mse_loss(torch):
    p, t = u(torch, 32768, 8192), u(torch, 32768, 8192)
    return lambda: torch.mean((p - t) ** 2)


@problem
def huber_loss(torch):
    p, t = u(torch, 32768, 8192), u(torch, 32768, 8192)
    return lambda: F(torch).smooth_l1_loss(p, t)


@problem
def cross_entropy(torch):
    logits = u(torch, 32768, 4096)
    target = torch.randint(0, 4096, (32768,), device="cuda")
    return lambda: F(torch).cross_entropy(logits, target)


@problem
def gemm_bias_relu(torch):
    x, w, b = u(torch, 256, 8192), u(torch, 8192, 8192), u(torch, 8192)
    return lambda: torch.relu(F(torch).linear(x, w) + b)


@problem
def gemm_sigmoid_scale_residual(torch):
    x, w, b = u(torch, 256, 8192), u(torch, 8192, 8192), u(torch, 8192)

    def run():
        z = F(torch).linear(x, w, b)
        return torch.sigmoid(z) * 2.0 + z
    return run


def median_ms(torch, run, warmup, runs):
    for _ in range(warmup):
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def measure(torch, names, runs):
    results = {}
    for name in names:
        try:
            run = PROBLEMS[name](torch)
            results[name] = {"ms": round(median_ms(torch, run, 3, runs), 4)}
        except Exception as err:  # An OOM or a missing op fails one problem, not all.
            results[name] = {"error": f"{type(err).__name__}: {err}"}
        run = None
        torch.cuda.empty_cache()
        print(f"torch_eager: {name}: {results[name]}", file=sys.stderr)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated problem names")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--out", help="JSON output (default: stdout)")
    parser.add_argument("--list", action="store_true", help="print the problem names")
    args = parser.parse_args(argv)
    names = sorted(PROBLEMS)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in PROBLEMS]
        if unknown:
            parser.error(f"unknown problems: {', '.join(unknown)}")
    if args.list:
        print("\n".join(names))
        return 0
    if args.runs < 20:
        parser.error("--runs must be at least 20")
    try:
        import torch
    except ImportError as err:
        print(f"torch_eager: PyTorch is not installed here ({err}); nothing measured",
              file=sys.stderr)
        return 0
    if not torch.cuda.is_available():
        print("torch_eager: PyTorch sees no CUDA device; nothing measured", file=sys.stderr)
        return 0
    meta = {
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "matmul_allow_tf32": torch.backends.cuda.matmul.allow_tf32,
        "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32,
        "runs": args.runs,
    }
    text = json.dumps({"meta": meta, "problems": measure(torch, names, args.runs)}, indent=1)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
