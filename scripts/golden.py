"""PyTorch goldens for the CPU reference model (llm.c's test_gpt2 idea).

Builds the canonical model of src/model/config.ts in PyTorch, independently of the TS code,
from the weights and batch that scripts/golden-input.ts wrote, and records in float64:
  - ce:       logits [B,T,V], mean cross-entropy over masked positions, every parameter gradient
  - pertoken: L = sum gL*logp + sum gE*H at temperature tau (log-probs and entropy of
              softmax(logits/tau)), and every parameter gradient of it
  - train:    10 steps on the same batch of mean CE: global-norm clip (g *= c/norm when
              norm > c), then torch.optim.AdamW with weight decay on 2-D tensors only;
              the loss before each step and the pre-clip gradient norm

Run with Debian's python (torch 1.13):
  npx tsx scripts/golden-input.ts /tmp/golden-input.json
  /usr/bin/python3 scripts/golden.py /tmp/golden-input.json src/model/goldens/micro.json
"""
import json
import math
import sys

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


def load(path):
    with open(path) as f:
        return json.load(f)


def unflatten(inp):
    flat = torch.tensor(inp["weights"], dtype=torch.float64)
    params = {}
    for t in inp["layout"]:
        params[t["name"]] = flat[t["offset"]:t["offset"] + t["size"]].reshape(t["shape"]).clone().requires_grad_(True)
    return params


def forward(p, cfg, inputs):
    """logits [B,T,V] of the pre-LN GPT: x = x + attn(ln1(x)); x = x + mlp(ln2(x)); lm_head(lnf(x))."""
    B, T = inputs.shape
    D, H, L = cfg["dModel"], cfg["nHeads"], cfg["nLayers"]
    hs = D // H
    x = p["wte"][inputs] + p["wpe"][:T]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for l in range(L):
        h = F.layer_norm(x, (D,), p[f"h{l}.ln1.g"], p[f"h{l}.ln1.b"], eps=1e-5)
        qkv = h @ p[f"h{l}.qkv.w"] + p[f"h{l}.qkv.b"]
        q, k, v = qkv.split(D, dim=-1)
        q = q.view(B, T, H, hs).transpose(1, 2)
        k = k.view(B, T, H, hs).transpose(1, 2)
        v = v.view(B, T, H, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hs)
        att = att.masked_fill(~causal, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        x = x + (y @ p[f"h{l}.proj.w"] + p[f"h{l}.proj.b"])
        h = F.layer_norm(x, (D,), p[f"h{l}.ln2.g"], p[f"h{l}.ln2.b"], eps=1e-5)
        h = F.gelu(h @ p[f"h{l}.fc.w"] + p[f"h{l}.fc.b"], approximate="tanh")
        x = x + (h @ p[f"h{l}.fc2.w"] + p[f"h{l}.fc2.b"])
    x = F.layer_norm(x, (D,), p["lnf.g"], p["lnf.b"], eps=1e-5)
    return x @ p["lm_head"]


def logp_entropy(logits, targets, tau):
    lp = F.log_softmax(logits / tau, dim=-1)
    logp = lp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    ent = -(lp.exp() * lp).sum(-1)
    return logp, ent


def mean_ce(logits, targets, mask):
    logp, _ = logp_entropy(logits, targets, 1.0)
    return -(logp * mask).sum() / mask.sum()


def grads_of(loss, params, names):
    for t in params.values():
        t.grad = None
    loss.backward()
    return {n: params[n].grad.flatten().tolist() for n in names}


def main():
    src, dst = sys.argv[1], sys.argv[2]
    inp = load(src)
    cfg = inp["config"]
    names = [t["name"] for t in inp["layout"]]
    bt = inp["batch"]
    B, T = bt["B"], bt["T"]
    inputs = torch.tensor(bt["inputs"]).view(B, T)
    targets = torch.tensor(bt["targets"]).view(B, T)
    mask = torch.tensor(bt["mask"], dtype=torch.float64).view(B, T)

    # mean cross-entropy: logits, loss, grads
    p = unflatten(inp)
    logits = forward(p, cfg, inputs)
    loss = mean_ce(logits, targets, mask)
    ce = {"loss": loss.item(), "logits": logits.detach().flatten().tolist(), "grads": grads_of(loss, p, names)}

    # per-token logp + entropy at a temperature
    pt = inp["pertoken"]
    p = unflatten(inp)
    logp, ent = logp_entropy(forward(p, cfg, inputs), targets, pt["tau"])
    gL = torch.tensor(pt["gradLogprob"]).view(B, T)
    gE = torch.tensor(pt["gradEntropy"]).view(B, T)
    ploss = (gL * logp).sum() + (gE * ent).sum()
    pertoken = {"tau": pt["tau"], "gradLogprob": pt["gradLogprob"], "gradEntropy": pt["gradEntropy"], "loss": ploss.item(), "grads": grads_of(ploss, p, names)}

    # 10 AdamW steps of mean CE on the same batch
    a = inp["adamw"]
    p = unflatten(inp)
    decay = [p[n] for n in names if p[n].dim() >= 2]
    no_decay = [p[n] for n in names if p[n].dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": a["weightDecay"]}, {"params": no_decay, "weight_decay": 0.0}],
        lr=a["lr"], betas=(a["beta1"], a["beta2"]), eps=a["eps"],
    )
    losses, norms = [], []
    for _ in range(a["steps"]):
        opt.zero_grad()
        loss = mean_ce(forward(p, cfg, inputs), targets, mask)
        loss.backward()
        norm = math.sqrt(sum(float((t.grad ** 2).sum()) for t in p.values()))
        if a["gradClip"] > 0 and norm > a["gradClip"]:
            for t in p.values():
                t.grad.mul_(a["gradClip"] / norm)
        opt.step()
        losses.append(loss.item())
        norms.append(norm)

    w = torch.tensor(inp["weights"])
    golden = {
        "about": "PyTorch float64 goldens of the canonical model (scripts/golden.py); inputs from scripts/golden-input.ts",
        "torch": torch.__version__,
        "config": cfg,
        "seed": inp["seed"],
        "initScale": inp["initScale"],
        "initWeightSum": float(w.sum()),
        "initWeightSumSq": float((w ** 2).sum()),
        "batch": bt,
        "ce": ce,
        "pertoken": pertoken,
        "train": {"adamw": a, "clip": "g *= gradClip/norm when norm > gradClip; weight decay on 2-D tensors only", "losses": losses, "gradNorms": norms},
    }

    def rnd(o):  # 10 significant digits keep the file small and far beyond the 1e-4 test
        if isinstance(o, float):
            return float(f"{o:.10g}")
        if isinstance(o, list):
            return [rnd(x) for x in o]
        if isinstance(o, dict):
            return {k: rnd(v) for k, v in o.items()}
        return o

    with open(dst, "w") as f:
        json.dump(rnd(golden), f, separators=(",", ":"))
    print(f"wrote {dst}: ce loss {ce['loss']:.6f}, pertoken loss {pertoken['loss']:.6f}, "
          f"losses {losses[0]:.4f} -> {losses[-1]:.4f}, grad norms {min(norms):.3f}..{max(norms):.3f}")


if __name__ == "__main__":
    main()
