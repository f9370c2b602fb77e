"""Shared by the randomized checks against eager PyTorch
(window_random.py, epilogue_random.py)."""
import torch

import graphopt


def check(what, fn, args, tol_rel=1e-4):
    """Compiles `fn` for `args` with graphopt.compile and compares its result
    with eager `fn(*args)`, within `tol_rel` of the largest output (at least
    `tol_rel` absolute). Prints a MISMATCH or ERROR line naming `what` and
    returns 1 on failure (a compile error is a failure too), 0 otherwise."""
    try:
        with torch.no_grad():
            ref = fn(*args)
        out = graphopt.compile(fn, args)(*args)
        err = (out - ref).abs().max().item() if ref.numel() else 0.0
        tol = tol_rel * max(1.0, ref.abs().max().item()) if ref.numel() else 0.0
        if out.shape != ref.shape or not err <= tol:
            print(f"MISMATCH {what}: max abs error {err}")
            return 1
    except Exception as e:
        print(f"ERROR {what}: {type(e).__name__}: {str(e)[:200]}")
        return 1
    return 0
