#!/usr/bin/env python3
"""Training steps per second: vitscope train --benchmark against PyTorch on
the same model (64 px, 8 px patches, width 64, 4 heads, 4 layers, MLP 256,
2 classes), batch 64, float32, AdamW with gradient clipping, the same thread
count, interleaved in one run (vitscope, PyTorch, vitscope, ...), so both see
the same machine. Prints wall-clock steps/s and CPU seconds per step (the
process's own CPU time: fairer on a machine others are loading).

usage: scripts/bench_train.py [--threads T] [--steps N] [--rounds R] [--bin build/vitscope]
Needs /usr/bin/python3 with torch (Debian's python3-torch). Debian's torch
calls whatever libblas.so.3 the system has: with only the reference BLAS
(libblas3) it is several times slower; give it OpenBLAS (libopenblas0-pthread,
installed, or unpacked with apt-get download + dpkg -x and put first on
LD_LIBRARY_PATH for this command only) for a fair comparison."""
import argparse
import os
import resource
import statistics
import subprocess
import time


def vitscope_round(binary, threads, steps):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, "train", "--task", "same_colour", "--benchmark", "--steps", str(steps),
                          "--threads", str(threads)], capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    fields = out.split()
    wall = float(fields[fields.index("seconds") + 1])
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return steps / wall, cpu / (steps + 3)  # the child's CPU time includes its 3 warm-up steps


def make_torch_model(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, dim, heads, mlp):
            super().__init__()
            self.norm1 = nn.LayerNorm(dim, eps=1e-6)
            self.qkv = nn.Linear(dim, 3 * dim)
            self.proj = nn.Linear(dim, dim)
            self.norm2 = nn.LayerNorm(dim, eps=1e-6)
            self.fc1 = nn.Linear(dim, mlp)
            self.fc2 = nn.Linear(mlp, dim)
            self.heads = heads

        def forward(self, x):
            b, n, d = x.shape
            qkv = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            a = torch.softmax(qkv[0] @ qkv[1].transpose(-1, -2) * (d // self.heads) ** -0.5, dim=-1)
            x = x + self.proj((a @ qkv[2]).transpose(1, 2).reshape(b, n, d))
            return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.norm2(x))))

    class TinyViT(nn.Module):
        def __init__(self, dim=64, heads=4, depth=4, mlp=256, patch=8, image=64, classes=2):
            super().__init__()
            self.patch_embed = nn.Conv2d(3, dim, patch, patch)
            self.cls = nn.Parameter(torch.zeros(1, 1, dim))
            self.pos = nn.Parameter(torch.zeros(1, 1 + (image // patch) ** 2, dim))
            self.blocks = nn.ModuleList(Block(dim, heads, mlp) for _ in range(depth))
            self.norm = nn.LayerNorm(dim, eps=1e-6)
            self.head = nn.Linear(dim, classes)

        def forward(self, x):
            t = self.patch_embed(x).flatten(2).transpose(1, 2)
            t = torch.cat([self.cls.expand(t.shape[0], -1, -1), t], dim=1) + self.pos
            for blk in self.blocks:
                t = blk(t)
            return self.head(self.norm(t[:, 0]))

    return TinyViT()


def torch_round(torch, threads, steps):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = make_torch_model(torch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    batches = [(torch.randn(64, 3, 64, 64), torch.randint(0, 2, (64,))) for _ in range(4)]

    def step(i):
        x, y = batches[i % 4]
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()

    for i in range(3):
        step(i)
    c0, t0 = time.process_time(), time.perf_counter()
    for i in range(steps):
        step(i)
    return steps / (time.perf_counter() - t0), (time.process_time() - c0) / steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--bin", default=os.path.join(here, "build", "vitscope"))
    a = ap.parse_args()
    # Debian's PyTorch calls the system BLAS; OpenBLAS's pthread build starts a
    # thread per core of its own unless told: the same count as everyone else.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    import torch

    print(f"torch {torch.__version__}, {a.threads} threads, batch 64, {a.steps} steps a round, {a.rounds} rounds, "
          f"load average before: {os.getloadavg()[0]:.2f}")
    ours, theirs = [], []
    for r in range(a.rounds):
        ours.append(vitscope_round(a.bin, a.threads, a.steps))
        theirs.append(torch_round(torch, a.threads, a.steps))
        print(f"round {r + 1}: vitscope {ours[-1][0]:.2f} steps/s ({ours[-1][1] * 1000:.0f} ms CPU a step), "
              f"PyTorch {theirs[-1][0]:.2f} steps/s ({theirs[-1][1] * 1000:.0f} ms CPU a step)", flush=True)
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    print(f"median: vitscope {med(ours, 0):.2f} steps/s, {med(ours, 1) * 1000:.0f} ms CPU a step; "
          f"PyTorch {med(theirs, 0):.2f} steps/s, {med(theirs, 1) * 1000:.0f} ms CPU a step; "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
