/**
 * check_export.py of an exported project: loads model.safetensors by GPT-2's parameter names and
 * compares its log-probabilities with the lab's own (parity/lab_logprobs.json, computed by the
 * lab's CPU reference at export time) on held-out prompts with their reference answers.
 *
 * Three engines, one comparison:
 *   pure          the standard library only: a GPT-2 forward in plain Python (slow, fine for the
 *                 lab's small models; `npm test` runs it)
 *   torch         a minimal GPT-2 in plain PyTorch (Conv1D weights [in, out], gelu_new,
 *                 LayerNorm eps from config.json, the untied lm_head.weight [V, D])
 *   transformers  GPT2LMHeadModel.from_pretrained(folder) and the folder's tokenizer
 *                 (AutoTokenizer), which must also give the lab's token ids
 */
export const CHECK_PY = String.raw`"""Check an exported rlvr-lab policy against the lab's own log-probabilities.

usage: python3 check_export.py [FOLDER] [--engine pure|torch|transformers] [--limit N] [--tolerance T]

Loads FOLDER/model.safetensors by GPT-2's parameter names (FOLDER/config.json for the shapes) and
compares log p(token | everything before it) at every position of the sequences in
FOLDER/parity/lab_logprobs.json (<bos> prompt answer <eos>, from the lab's CPU reference).
Prints one JSON line; exits 1 when the worst absolute difference exceeds the tolerance.
"""
import argparse
import array
import json
import math
import operator
import os
import struct
import sys


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    tensors = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        if e["dtype"] != "F32":
            raise ValueError("%s: dtype %s, expected F32" % (name, e["dtype"]))
        begin, end = e["data_offsets"]
        values = array.array("f")
        values.frombytes(data[8 + n + begin:8 + n + end])
        if sys.byteorder != "little":
            values.byteswap()
        if len(values) != math.prod(e["shape"]):
            raise ValueError("%s: %d values for shape %s" % (name, len(values), e["shape"]))
        tensors[name] = (e["shape"], values)
    return tensors


def log_softmax(row):
    m = max(row)
    s = math.log(sum(math.exp(z - m) for z in row))
    return [z - m - s for z in row]


# --- the pure-Python GPT-2 -------------------------------------------------------------------

class PureGPT2:
    def __init__(self, tensors, cfg):
        self.D, self.H, self.L = cfg["n_embd"], cfg["n_head"], cfg["n_layer"]
        self.eps = cfg["layer_norm_epsilon"]
        self.t = {k: list(v) for k, (_, v) in tensors.items()}
        self.cols = {}  # Conv1D weights [in, out] as columns, for sum(map(mul, row, column))
        for name, (shape, v) in tensors.items():
            if name.startswith("transformer.h.") and name.endswith(".weight") and len(shape) == 2:
                n_out = shape[1]
                self.cols[name] = [list(v[o::n_out]) for o in range(n_out)]
        shape, v = tensors["lm_head.weight"]
        self.head = [list(v[r * shape[1]:(r + 1) * shape[1]]) for r in range(shape[0])]

    def linear(self, x, name):
        cols, b = self.cols[name + ".weight"], self.t[name + ".bias"]
        return [[sum(map(operator.mul, row, c)) + bo for c, bo in zip(cols, b)] for row in x]

    def layernorm(self, x, name):
        g, b = self.t[name + ".weight"], self.t[name + ".bias"]
        out = []
        for row in x:
            m = sum(row) / len(row)
            var = sum((z - m) ** 2 for z in row) / len(row)
            r = 1 / math.sqrt(var + self.eps)
            out.append([(z - m) * r * gi + bi for z, gi, bi in zip(row, g, b)])
        return out

    def logits(self, ids):
        D, H = self.D, self.H
        hs = D // H
        wte, wpe = self.t["transformer.wte.weight"], self.t["transformer.wpe.weight"]
        x = [[wte[i * D + d] + wpe[p * D + d] for d in range(D)] for p, i in enumerate(ids)]
        n = len(ids)
        for l in range(self.L):
            p = "transformer.h.%d." % l
            qkv = self.linear(self.layernorm(x, p + "ln_1"), p + "attn.c_attn")
            y = [[0.0] * D for _ in range(n)]
            for h in range(H):
                q = [row[h * hs:(h + 1) * hs] for row in qkv]
                k = [row[D + h * hs:D + (h + 1) * hs] for row in qkv]
                v = [row[2 * D + h * hs:2 * D + (h + 1) * hs] for row in qkv]
                for t in range(n):
                    s = [sum(map(operator.mul, q[t], k[u])) / math.sqrt(hs) for u in range(t + 1)]
                    m = max(s)
                    e = [math.exp(z - m) for z in s]
                    tot = sum(e)
                    for i in range(hs):
                        y[t][h * hs + i] = sum(e[u] * v[u][i] for u in range(t + 1)) / tot
            a = self.linear(y, p + "attn.c_proj")
            x = [[xi + ai for xi, ai in zip(xr, ar)] for xr, ar in zip(x, a)]
            f = self.linear(self.layernorm(x, p + "ln_2"), p + "mlp.c_fc")
            c = math.sqrt(2 / math.pi)
            f = [[0.5 * z * (1 + math.tanh(c * (z + 0.044715 * z ** 3))) for z in row] for row in f]
            m = self.linear(f, p + "mlp.c_proj")
            x = [[xi + mi for xi, mi in zip(xr, mr)] for xr, mr in zip(x, m)]
        x = self.layernorm(x, "transformer.ln_f")
        return [[sum(map(operator.mul, row, w)) for w in self.head] for row in x]


# --- the plain-PyTorch GPT-2 -----------------------------------------------------------------

def torch_logits(tensors, cfg):
    import torch
    import torch.nn.functional as F

    W = {k: torch.tensor(v, dtype=torch.float32).reshape(shape) for k, (shape, v) in tensors.items()}
    D, H, L, eps = cfg["n_embd"], cfg["n_head"], cfg["n_layer"], cfg["layer_norm_epsilon"]

    def run(ids):
        n = len(ids)
        x = W["transformer.wte.weight"][torch.tensor(ids)] + W["transformer.wpe.weight"][:n]
        mask = torch.ones(n, n, dtype=torch.bool).tril()
        for l in range(L):
            p = "transformer.h.%d." % l
            h = F.layer_norm(x, (D,), W[p + "ln_1.weight"], W[p + "ln_1.bias"], eps)
            q, k, v = (h @ W[p + "attn.c_attn.weight"] + W[p + "attn.c_attn.bias"]).split(D, dim=-1)
            q, k, v = (t.view(n, H, D // H).transpose(0, 1) for t in (q, k, v))
            att = (q @ k.transpose(-1, -2)) / math.sqrt(D // H)
            att = att.masked_fill(~mask, float("-inf")).softmax(-1)
            y = (att @ v).transpose(0, 1).reshape(n, D)
            x = x + y @ W[p + "attn.c_proj.weight"] + W[p + "attn.c_proj.bias"]
            h = F.layer_norm(x, (D,), W[p + "ln_2.weight"], W[p + "ln_2.bias"], eps)
            f = F.gelu(h @ W[p + "mlp.c_fc.weight"] + W[p + "mlp.c_fc.bias"], approximate="tanh")
            x = x + f @ W[p + "mlp.c_proj.weight"] + W[p + "mlp.c_proj.bias"]
        x = F.layer_norm(x, (D,), W["transformer.ln_f.weight"], W["transformer.ln_f.bias"], eps)
        return (x @ W["lm_head.weight"].T).tolist()

    return run


def transformers_logits(folder, sequences):
    import torch
    from transformers import AutoTokenizer, GPT2LMHeadModel

    model = GPT2LMHeadModel.from_pretrained(folder, torch_dtype=torch.float32).eval()
    tok = AutoTokenizer.from_pretrained(folder)
    for s in sequences:
        ids = tok(tok.bos_token + s["prompt"] + s["response"], add_special_tokens=False).input_ids + [tok.eos_token_id]
        if ids != s["ids"]:
            raise SystemExit("tokenizer: %r gives %s, the lab %s" % (s["prompt"] + s["response"], ids, s["ids"]))

    def run(ids):
        with torch.no_grad():
            return model(torch.tensor([ids])).logits[0].tolist()

    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--engine", choices=["pure", "torch", "transformers"], default="pure")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--tolerance", type=float, default=1e-4)
    a = ap.parse_args()
    cfg = json.load(open(os.path.join(a.folder, "config.json")))
    ref = json.load(open(os.path.join(a.folder, "parity", "lab_logprobs.json")))
    sequences = ref["sequences"][: a.limit or None]
    tensors = read_safetensors(os.path.join(a.folder, "model.safetensors"))
    if a.engine == "pure":
        run = PureGPT2(tensors, cfg).logits
    elif a.engine == "torch":
        run = torch_logits(tensors, cfg)
    else:
        run = transformers_logits(a.folder, sequences)
    worst, tokens = 0.0, 0
    for s in sequences:
        logits = run(s["ids"])
        for t, lab in enumerate(s["logprobs"]):
            mine = log_softmax(logits[t])[s["ids"][t + 1]]
            worst = max(worst, abs(mine - lab))
            tokens += 1
    print(json.dumps({"engine": a.engine, "sequences": len(sequences), "tokens": tokens, "max_abs_diff": worst, "tolerance": a.tolerance, "ok": worst <= a.tolerance}))
    sys.exit(0 if worst <= a.tolerance else 1)


if __name__ == "__main__":
    main()
`;
