/**
 * A custom task's verifier in Python, for reward.py: the task-spec language of src/tasks/spec
 * (language.ts: tokenizer, recursive-descent parser, interpreter; vars.ts: domains, the {name}
 * template and reading a prompt back into its variables; task.ts: solve and the scratchpad steps)
 * transcribed rule for rule, so that reward.py re-derives a custom task's expected answer from the
 * prompt text as the lab does, instead of trusting the dataset's `answer` column.
 *
 * The points where Python and TypeScript differ by default, made to agree:
 *   "/" truncates toward zero (C, JS's Math.trunc(a / b)), not Python's floor; "%" takes the sign of
 *   the dividend (JS's %), not the divisor's; both error on zero. Numbers are exact integers here
 *   and doubles in the lab, which agree because every value stays within ±10^15 < 2^53 (an error
 *   beyond, checked the same way). A number joins text as its decimal form ("-7"); sort() orders
 *   characters by code (the vocabulary is ASCII); count() counts non-overlapping occurrences left
 *   to right (str.count); a prompt is read back by the same depth-first search, in the same order,
 *   under the same step budget (20,000), so the first reading is the lab's.
 * rewardSpec.test.ts runs it against the TypeScript language on every shipped spec, random specs
 * from the grammar and random expressions.
 */
export const SPEC_PY = String.raw`

# --- a custom task: the lab's task-spec language (src/tasks/spec), re-deriving the answer from the prompt ---

class SpecError(ValueError):
    """An expression that cannot be evaluated on these values (the lab's LanguageError)."""


SPEC_MAX_NUMBER = 10 ** 15
SPEC_MAX_STRING = 256
SPEC_FUNCTIONS = {"min": (2, 8), "max": (2, 8), "abs": (1, 1), "len": (1, 1), "reverse": (1, 1), "sort": (1, 1), "first": (1, 1), "last": (1, 1), "count": (2, 2)}


def spec_tokens(src):
    out, i = [], 0
    while i < len(src):
        c = src[i]
        if c == " ":
            i += 1
            continue
        start = i
        if "0" <= c <= "9":
            while i < len(src) and "0" <= src[i] <= "9":
                i += 1
            if i - start > 10:
                raise SpecError("a number has more than 10 digits")
            out.append(("num", src[start:i]))
        elif "a" <= c <= "z":
            while i < len(src) and ("a" <= src[i] <= "z" or "0" <= src[i] <= "9" or src[i] == "_"):
                i += 1
            out.append(("name", src[start:i]))
        elif c == '"':
            end = src.find('"', i + 1)
            if end < 0:
                raise SpecError("a text has no closing quote")
            out.append(("str", src[i + 1:end]))
            i = end + 1
        elif c in "+-*/%(),":
            out.append(("op", c))
            i += 1
        else:
            raise SpecError("unexpected character %r" % c)
    return out


def spec_parse(src):
    """expr := term (("+"|"-") term)*; term := unary (("*"|"/"|"%") unary)*; unary := "-" unary | primary;
    primary := NUMBER | STRING | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"."""
    toks = spec_tokens(src)
    pos = [0]

    def is_op(v):
        return pos[0] < len(toks) and toks[pos[0]] == ("op", v)

    def expect(v):
        if not is_op(v):
            raise SpecError("expected %r" % v)
        pos[0] += 1

    def expr():
        left = term()
        while is_op("+") or is_op("-"):
            op = toks[pos[0]][1]
            pos[0] += 1
            left = ("bin", op, left, term())
        return left

    def term():
        left = unary()
        while is_op("*") or is_op("/") or is_op("%"):
            op = toks[pos[0]][1]
            pos[0] += 1
            left = ("bin", op, left, unary())
        return left

    def unary():
        if is_op("-"):
            pos[0] += 1
            return ("neg", unary())
        return primary()

    def primary():
        if pos[0] >= len(toks):
            raise SpecError("the expression ends where a value was expected")
        kind, v = toks[pos[0]]
        if kind == "num":
            pos[0] += 1
            return ("num", int(v))
        if kind == "str":
            pos[0] += 1
            return ("str", v)
        if kind == "name":
            pos[0] += 1
            if not is_op("("):
                return ("var", v)
            pos[0] += 1
            args = [expr()]
            while is_op(","):
                pos[0] += 1
                args.append(expr())
            expect(")")
            return ("call", v, args)
        if is_op("("):
            pos[0] += 1
            e = expr()
            expect(")")
            return e
        raise SpecError("unexpected %r" % v)

    node = expr()
    if pos[0] < len(toks):
        raise SpecError("unexpected %r" % toks[pos[0]][1])
    return node


def spec_text(v):
    """A value as a prompt, an answer or a step writes it."""
    return v if isinstance(v, str) else str(v)


def spec_number(x):
    if not isinstance(x, int) or isinstance(x, bool):
        raise SpecError("a number was expected")
    if abs(x) > SPEC_MAX_NUMBER:
        raise SpecError("a number grows past 10^15")
    return x


def spec_string(x):
    if not isinstance(x, str):
        raise SpecError("a string was expected")
    return x


def spec_truncated_division(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def spec_eval(n, env):
    kind = n[0]
    if kind in ("num", "str"):
        return n[1]
    if kind == "var":
        if n[1] not in env:
            raise SpecError("unknown variable %r" % n[1])
        return env[n[1]]
    if kind == "neg":
        return spec_number(-spec_number(spec_eval(n[1], env)))
    if kind == "bin":
        op, left, right = n[1], spec_eval(n[2], env), spec_eval(n[3], env)
        if op == "+" and (isinstance(left, str) or isinstance(right, str)):
            s = spec_text(left) + spec_text(right)
            if len(s) > SPEC_MAX_STRING:
                raise SpecError("a string grows past %d characters" % SPEC_MAX_STRING)
            return s
        a, b = spec_number(left), spec_number(right)
        if op == "+":
            return spec_number(a + b)
        if op == "-":
            return spec_number(a - b)
        if op == "*":
            return spec_number(a * b)
        if b == 0:
            raise SpecError("division by zero" if op == "/" else "remainder by zero")
        q = spec_truncated_division(a, b)
        return spec_number(q if op == "/" else a - q * b)
    if kind == "call":
        fn, args = n[1], [spec_eval(a, env) for a in n[2]]
        if fn not in SPEC_FUNCTIONS or not SPEC_FUNCTIONS[fn][0] <= len(args) <= SPEC_FUNCTIONS[fn][1]:
            raise SpecError("unknown function %r or wrong number of arguments" % fn)
        if fn in ("min", "max", "abs"):
            xs = [spec_number(x) for x in args]
            return min(xs) if fn == "min" else max(xs) if fn == "max" else abs(xs[0])
        s = spec_string(args[0])
        if fn == "len":
            return len(s)
        if fn == "reverse":
            return s[::-1]
        if fn == "sort":
            return "".join(sorted(s))
        if fn in ("first", "last"):
            if s == "":
                raise SpecError("%s of an empty string" % fn)
            return s[0] if fn == "first" else s[-1]
        t = spec_string(args[1])
        if t == "":
            raise SpecError("count of an empty string")
        return s.count(t)
    raise SpecError("not an expression")


# --- variables, the prompt template, and reading a prompt back (vars.ts) ---

def spec_domain(v):
    if isinstance(v, list):
        return ("int", v[0], v[1])
    if "choice" in v:
        return ("choice", list(v["choice"]))
    return ("string", v["string"]["alphabet"], v["string"]["length"][0], v["string"]["length"][1])


def spec_text_bounds(d):
    if d[0] == "int":
        lens = [len(spec_text(d[1])), len(spec_text(d[2]))]
        return (1 if d[1] <= 0 <= d[2] else min(lens), max(lens))
    if d[0] == "choice":
        lens = [len(spec_text(x)) for x in d[1]]
        return (min(lens), max(lens))
    return (d[2], d[3])


def spec_read_value(d, text):
    """The value this text writes in this domain, or None."""
    if d[0] == "int":
        if re.fullmatch(r"0|-?[1-9][0-9]*", text) is None or len(text) > 11:
            return None
        x = int(text)
        return x if d[1] <= x <= d[2] else None
    if d[0] == "choice":
        return next((x for x in d[1] if spec_text(x) == text), None)
    if not d[2] <= len(text) <= d[3] or any(c not in d[1] for c in text):
        return None
    return text


def spec_template(t):
    parts, lit, i = [], "", 0
    while i < len(t):
        if t[i] == "{":
            end = t.index("}", i)
            if lit:
                parts.append(("lit", lit))
            lit = ""
            parts.append(("name", t[i + 1:end]))
            i = end + 1
        else:
            lit += t[i]
            i += 1
    if lit:
        parts.append(("lit", lit))
    return parts


def spec_read_prompt(parts, domains, prompt):
    """The first reading of the prompt as the template (the lab's depth-first order and step budget), or None."""
    bounds = {}
    for name, ds in domains.items():
        b = [spec_text_bounds(d) for d in ds]
        bounds[name] = (min(x[0] for x in b), max(x[1] for x in b))
    budget = [20000]
    bound = {}
    found = []

    def go(k, pos):
        if found:
            return
        budget[0] -= 1
        if budget[0] < 0:
            return
        if k == len(parts):
            if pos == len(prompt):
                found.append(dict(bound))
            return
        kind, v = parts[k]
        if kind == "lit":
            if prompt.startswith(v, pos):
                go(k + 1, pos + len(v))
            return
        if v in bound:
            text = spec_text(bound[v])
            if prompt.startswith(text, pos):
                go(k + 1, pos + len(text))
            return
        lo, hi = bounds[v]
        for end in range(pos + lo, min(len(prompt), pos + hi) + 1):
            text = prompt[pos:end]
            value = next((x for x in (spec_read_value(d, text) for d in domains[v]) if x is not None), None)
            if value is None:
                continue
            bound[v] = value
            go(k + 1, end)
            del bound[v]
            if found or budget[0] < 0:
                return

    go(0, 0)
    return found[0] if found else None


def spec_compile(spec):
    if "data" in spec:
        return {"data": {row["prompt"]: row["answer"] for row in spec["data"]}}
    levels = spec.get("levels") or [{}]
    union = {name: [spec_domain(level.get(name, v)) for level in levels] for name, v in spec["vars"].items()}
    return {"parts": spec_template(spec["prompt"]), "union": union, "answer": spec_parse(spec["answer"]),
            "scratch": [spec_parse(s) for s in spec.get("scratchpad") or []]}


_SPEC_READ = {}


def spec_read(prompt):
    """(answer, steps) of a prompt of the custom task, re-derived from its text as the lab does (task.ts)."""
    if not isinstance(prompt, str) or len(prompt) > SPEC_MODEL_POSITIONS:
        raise PromptError("task %s: malformed prompt %r; not a prompt of this task" % (TASK, prompt))
    if prompt in _SPEC_READ:
        return _SPEC_READ[prompt]
    if "data" in SPEC_COMPILED:
        if prompt not in SPEC_COMPILED["data"]:
            raise PromptError("task %s: malformed prompt %r; it is not one of the task's data prompts" % (TASK, prompt))
        out = (SPEC_COMPILED["data"][prompt], [])
    else:
        env = spec_read_prompt(SPEC_COMPILED["parts"], SPEC_COMPILED["union"], prompt)
        if env is None:
            raise PromptError("task %s: malformed prompt %r; expected %r with the variables in their ranges" % (TASK, prompt, SPEC["prompt"]))
        try:
            out = (spec_text(spec_eval(SPEC_COMPILED["answer"], env)), [spec_text(spec_eval(s, env)) for s in SPEC_COMPILED["scratch"]])
        except SpecError as e:
            raise PromptError("task %s: malformed prompt %r; its answer cannot be computed (%s)" % (TASK, prompt, e))
    if len(_SPEC_READ) >= 4096:
        _SPEC_READ.clear()
    _SPEC_READ[prompt] = out
    return out
`;
