#!/usr/bin/env python3
"""The oracle suite: the same pipeline scripts under real NVIDIA DALI (CPU, device_id=None)
and under dalic, compared sample by sample.

Run through `make check-dali` (tests/dali/check.sh makes the virtual environment). Each case is
a script in tests/dali/cases/ (or samples/scripts/real/, modules written as repositories write
them) that creates exactly one pipeline at module level; its header
comments configure it:

    # oracle: iterations=3          iterations to compare (default 3)
    # oracle: atol=1                absolute tolerance (default 0: exact, NaN equals NaN)
    # oracle: error=Supported types the case must fail in both; both messages contain this
    # oracle: dalic_error=...       ... or a phrase for each side when they word it apart
    # oracle: dali_error=...
    # oracle: checks=outputs,serialize,stats   which checks to run (default: all that apply;
                                    stats includes memory)
    # oracle: xfail=REASON          a known difference (docs/dali-differences.md); a case
                                    marked so that passes is reported as a failure (XPASS)
    # oracle: skip=REASON           not run (said so in the output)
    # oracle: run_name=__main__     run the module as a script (its `if __name__` block)
    # oracle: ran=N                 ... which already ran N iterations under DALI: dalic's
                                    outputs are compared from its iteration N
    # oracle: pipeline=NAME         a module that only defines pipelines: call NAME (a
                                    @pipeline_def function or a Pipeline subclass) ...
    # oracle: args=K=V, K=V         ... with these keyword arguments (Python literals);
                                    dalic gets `--pipeline NAME --arg K=V ...`
    # oracle: feed=NAME=PATH        a streaming input (experimental.inputs.video) fed whole
                                    files, one per feed_input, in the order and cycle of
                                    dalic's `--feed NAME=PATH` (a file, a directory, a list)
    # oracle: checkpoint=K          a checkpoint case (oracle_ckpt.py): checkpoints after K
                                    iterations, both ways, then `iterations` more batches
    # oracle: ckpt_modes=A,B        its executor modes (default: all of oracle_ckpt.MODES)

The real-style modules of samples/scripts/real/ run as cases too.

Checks per output case:
    outputs     DALI's outputs == dalic's (`dalic run CASE --dump`), every sample
    serialize   DALI serialize() -> dalic runs the .pb: same outputs as DALI;
                `dalic serialize CASE` -> DALI Pipeline.deserialize runs it: same outputs
    stats       the executor_statistics keys of both agree
    memory      each operator's real_memory_size and max_real_memory_size (DALI 2.4's legacy
                executor) equal dalic's real_memory_size and max_real_memory_size_dali24
    names       the instance names in both serialized graphs agree, in order

Checks per checkpoint case (`checkpoint=K`; oracle_ckpt.py), in each executor mode:
    ckpt bytes      dalic's checkpoint after K iterations == DALI's, byte for byte
    ckpt DALI->dalic  dalic restores DALI's checkpoint: DALI's next batches
    ckpt dalic->DALI  DALI restores dalic's (`Pipeline(checkpoint=...)`): DALI's next batches

Prints one line per case and check, then `N passed, N failed`.
"""
import argparse
import ast
import inspect
import glob
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def oracle_parse_header(path):
    opts = {"iterations": "3", "atol": "0"}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*#\s*oracle:\s*(\w+)\s*=\s*(.*?)\s*$", line)
            if m:
                opts[m.group(1)] = m.group(2)
    return opts


def oracle_find_pipeline(globs):
    from nvidia.dali.pipeline import Pipeline

    pipes = [v for k, v in globs.items() if isinstance(v, Pipeline) and not k.startswith("_")]
    uniq = []
    for p in pipes:
        if all(p is not q for q in uniq):
            uniq.append(p)
    if len(uniq) != 1:
        raise RuntimeError("oracle case must create exactly one pipeline, found %d" % len(uniq))
    return uniq[0]


def oracle_args(opts):
    """The `args` header as (name, source text, value) triples."""
    text = opts.get("args", "")
    call = ast.parse("f(%s)" % text, mode="eval").body
    return [(k.arg, ast.get_source_segment("f(%s)" % text, k.value), ast.literal_eval(k.value))
            for k in call.keywords]


def oracle_dalic_args(opts):
    """What dalic needs to pick and build the case's pipeline."""
    if "pipeline" not in opts:
        return []
    out = ["--pipeline", opts["pipeline"]]
    for name, src, _ in oracle_args(opts):
        out += ["--arg", "%s=%s" % (name, src)]
    return out


def oracle_feed_specs(opts):
    return [x.strip() for x in opts.get("feed", "").split(",") if x.strip()]


def oracle_feed_args(opts):
    """dalic's `--feed` for the case (run and stats; serialize needs none)."""
    out = []
    for spec in oracle_feed_specs(opts):
        out += ["--feed", spec]
    return out


def oracle_feed_files(path):
    """The files `--feed NAME=PATH` serves, in its order (cli/feed.c)."""
    path = os.path.join(ROOT, path)
    if os.path.isdir(path):
        return sorted(os.path.join(path, f) for f in os.listdir(path)
                      if not f.startswith(".") and os.path.isfile(os.path.join(path, f)))
    with open(path, "rb") as f:
        if b"\0" in f.read(4096):
            return [path]
    base = os.path.dirname(path)
    with open(path) as f:
        lines = [ln.strip() for ln in f]
    return [os.path.join(base, ln) for ln in lines if ln and not ln.startswith("#")]


def oracle_feed(pipe, opts, iterations):
    """Feeds each streaming input enough whole files for `iterations` (each gives at least
    one), cycling through them as dalic does."""
    for spec in oracle_feed_specs(opts):
        name, _, path = spec.partition("=")
        files = oracle_feed_files(path)
        for k in range(iterations + 1):
            pipe.feed_input(name, [np.fromfile(files[k % len(files)], np.uint8)])


def oracle_call_taking(fn, args, used):
    """Calls fn with the arguments its signature takes (all of them with **kwargs)."""
    params = inspect.signature(fn).parameters
    every = any(p.kind == p.VAR_KEYWORD for p in params.values())
    mine = {k: v for k, v in args.items() if every or k in params}
    used.update(mine)
    return fn(**mine)


def oracle_load_pipeline(case, opts):
    from nvidia.dali.pipeline import Pipeline

    globs = oracle_run_case_script(case, opts.get("run_name", "__oracle__"))
    if "pipeline" not in opts:
        return oracle_find_pipeline(globs)
    args = {k: v for k, _, v in oracle_args(opts)}
    name, _, method = opts["pipeline"].partition(".")
    if not method and (isinstance(globs[name], type) and issubclass(globs[name], Pipeline)
                       or hasattr(globs[name], "_is_pipeline_def")):
        return globs[name](**args)
    # a factory (a plain class, Cls.method, or a function), as dalic builds one
    # (frontend/script/dali/sdfactory.c): the arguments each call takes, the rest to a
    # returned @pipeline_def function
    used = {}
    r = oracle_call_taking(globs[name], args, used)
    if method:
        r = oracle_call_taking(getattr(r, method), args, used)
    if hasattr(r, "_is_pipeline_def"):
        return r(**{k: v for k, v in args.items() if k not in used})
    if isinstance(r, Pipeline):
        return r
    pipes = [v for v in vars(r).values() if isinstance(v, Pipeline)]
    if len(pipes) != 1:
        raise RuntimeError("factory %s made %d pipelines" % (opts["pipeline"], len(pipes)))
    return pipes[0]


def oracle_save_outputs(pipe, iterations, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for it in range(iterations):
        outs = pipe.run()
        for o, tl in enumerate(outs):
            for s in range(len(tl)):
                arr = np.array(tl[s])
                np.save(os.path.join(out_dir, "i%06d_o%d_s%03d.npy" % (it, o, s)), arr)


def oracle_run_case_script(case, run_name="__oracle__"):
    """The case's globals, as a fresh Python process would make them: DALI names operators
    created with no current pipeline (constant outputs) from a process-wide counter."""
    import itertools
    import nvidia.dali.ops as ops

    ops._OpCounter._op_count = itertools.count(0)
    return runpy.run_path(case, run_name=run_name)


def oracle_dali_case(case, opts, work):
    """Runs the case under DALI: outputs, serialized bytes, executor_statistics keys."""
    res = {"error": None}
    try:
        pipe = oracle_load_pipeline(case, opts)
        pipe.build()
        checks = opts.get("checks", "outputs,serialize,stats,names").split(",")
        if "serialize" in checks or "names" in checks:  # (python_function cannot be)
            res["serialized"] = pipe.serialize()
        oracle_feed(pipe, opts, int(opts["iterations"]))
        oracle_save_outputs(pipe, int(opts["iterations"]), os.path.join(work, "dali"))
        del pipe
    except Exception as e:  # noqa: BLE001 - the message is the result
        res["error"] = oracle_message(e)
        return res
    if "stats" not in checks:
        return res
    try:
        res["stats"] = oracle_dali_stats(case, opts)
    except Exception as e:  # noqa: BLE001 - reported by the stats check
        res["stats"] = None
        res["stats_error"] = oracle_message(e)
    return res


def oracle_message(e):
    """An exception as one line: DALI's multi-line errors with their blank lines folded."""
    return "%s: %s" % (type(e).__name__, " ".join(str(e).split()))


def oracle_load_forced(case, opts, forced_kwargs):
    """The case's pipeline, with these Pipeline parameters forced over the script's."""
    from nvidia.dali.pipeline import Pipeline

    init = Pipeline.__init__

    def forced(self, *args, **kwargs):
        kwargs.update(forced_kwargs)
        init(self, *args, **kwargs)

    forced.__signature__ = inspect.signature(init)  # pipeline_def reads it

    Pipeline.__init__ = forced
    try:
        return oracle_load_pipeline(case, opts)
    finally:
        Pipeline.__init__ = init


def oracle_dali_stats(case, opts):
    """executor_statistics: DALI fills them with memory stats on, in its legacy
    (non-dynamic) executor, so the case runs again with those parameters forced."""
    # not pipelined: the figures then cover exactly the iterations run (a prefetched
    # iteration would land in them or not, as the threads go)
    pipe = oracle_load_forced(case, opts, {"enable_memory_stats": True, "exec_dynamic": False,
                                           "exec_pipelined": False, "exec_async": False})
    pipe.build()
    oracle_feed(pipe, opts, int(opts["iterations"]))
    for _ in range(int(opts["iterations"])):
        pipe.run()
    stats = pipe.executor_statistics()
    del pipe
    return stats


def oracle_dali_run_serialized(data, iterations, out_dir, opts):
    from nvidia.dali.pipeline import Pipeline

    pipe = Pipeline.deserialize(serialized_pipeline=data, device_id=None)
    pipe.build()
    oracle_feed(pipe, opts, iterations)
    oracle_save_outputs(pipe, iterations, out_dir)
    del pipe


def oracle_dalic(dalic, args, timeout=300):
    p = subprocess.run([dalic] + args, cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def oracle_drop_iterations(d, ran):
    """Renumbers dalic's dump in d as if its first `ran` iterations had not been dumped."""
    for name in sorted(os.listdir(d)):
        m = re.match(r"i(\d{6})(_.*)$", name)
        path = os.path.join(d, name)
        if not m or int(m.group(1)) < ran:
            os.remove(path)
        else:
            os.rename(path, os.path.join(d, "i%06d%s" % (int(m.group(1)) - ran, m.group(2))))


def oracle_compare_dirs(a_dir, b_dir, atol):
    """None when every .npy in a_dir has an equal twin in b_dir (and no extra ones)."""
    a = sorted(os.path.basename(p) for p in glob.glob(os.path.join(a_dir, "*.npy")))
    b = sorted(os.path.basename(p) for p in glob.glob(os.path.join(b_dir, "*.npy")))
    if a != b:
        only_a = sorted(set(a) - set(b))[:3]
        only_b = sorted(set(b) - set(a))[:3]
        return "files differ: only DALI %s, only dalic %s (%d vs %d)" % (
            only_a, only_b, len(a), len(b))
    if not a:
        return "no outputs"
    worst = 0.0
    for name in a:
        x = np.load(os.path.join(a_dir, name))
        y = np.load(os.path.join(b_dir, name))
        if x.dtype != y.dtype:
            return "%s: dtype %s vs %s" % (name, x.dtype, y.dtype)
        if x.shape != y.shape:
            return "%s: shape %s vs %s" % (name, x.shape, y.shape)
        if x.dtype.kind == "f" and not np.array_equal(np.isnan(x), np.isnan(y)):
            return "%s: NaN positions differ" % name
        if atol > 0 and x.dtype.kind in "fiu":
            xd = np.nan_to_num(x.astype(np.float64))
            yd = np.nan_to_num(y.astype(np.float64))
            d = float(np.max(np.abs(xd - yd), initial=0.0))
            worst = max(worst, d)
            if d > atol:
                return "%s: max |diff| %g > atol %g" % (name, d, atol)
        elif not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            idx = np.argwhere(x != y)[0]
            return "%s: first difference at %s: %s vs %s" % (
                name, tuple(idx), x[tuple(idx)], y[tuple(idx)])
    return None


def oracle_compare_memory(dali_stats, report):
    """None when every operator's real_memory_size and max_real_memory_size in DALI's
    executor_statistics equal dalic's real_memory_size and max_real_memory_size_dali24."""
    ops = {op["key"]: op for op in report["operators"]}
    for key in sorted(dali_stats):
        op = ops.get(key)
        if op is None:
            return "%s: not among dalic's operators" % key
        theirs = (list(dali_stats[key]["real_memory_size"]),
                  list(dali_stats[key]["max_real_memory_size"]))
        mine = ([o["real_memory_size"] for o in op["outputs"]],
                [o["max_real_memory_size_dali24"] for o in op["outputs"]])
        if theirs != mine:
            return "%s: DALI real %s max %s vs dalic real %s max_dali24 %s" % (
                key, theirs[0], theirs[1], mine[0], mine[1])
    return None


def oracle_proto_names(data):
    """Instance names of the operators in a serialized pipeline, in order (a minimal
    protobuf walk: PipelineDef.op = 5, OpDef.inst_name = 5)."""
    def varint(buf, i):
        v = s = 0
        while True:
            c = buf[i]
            i += 1
            v |= (c & 0x7F) << s
            s += 7
            if c < 0x80:
                return v, i

    def fields(buf):
        i = 0
        while i < len(buf):
            key, i = varint(buf, i)
            wt = key & 7
            if wt == 0:
                v, i = varint(buf, i)
            elif wt == 2:
                n, i = varint(buf, i)
                v = buf[i:i + n]
                i += n
            elif wt == 1:
                v = buf[i:i + 8]
                i += 8
            elif wt == 5:
                v = buf[i:i + 4]
                i += 4
            else:
                raise ValueError("wire type %d" % wt)
            yield key >> 3, v

    names = []
    for f, v in fields(data):
        if f == 5:
            for g, w in fields(v):
                if g == 5:
                    names.append(w.decode())
    return names


class Oracle:
    def __init__(self, dalic, keep):
        self.dalic = dalic
        self.keep = keep
        self.passed = 0
        self.failed = 0
        self.failures = []

    def report(self, case, check, problem, xfail=None):
        name = "%s [%s]" % (os.path.relpath(case, ROOT), check)
        if xfail is not None:
            if problem is None:
                self.failed += 1
                self.failures.append(name)
                print("XPASS %s (marked xfail: %s; remove the mark)" % (name, xfail))
            else:
                self.passed += 1
                print("xfail %s: %s" % (name, problem))
        elif problem is None:
            self.passed += 1
            print("ok    %s" % name)
        else:
            self.failed += 1
            self.failures.append(name)
            print("FAIL  %s: %s" % (name, problem))
        sys.stdout.flush()

    def run_case(self, case):
        opts = oracle_parse_header(case)
        xfail = opts.get("xfail")
        if "skip" in opts:
            print("skip  %s: %s" % (os.path.basename(case), opts["skip"]))
            return
        work = tempfile.mkdtemp(prefix="oracle-", dir=self.keep)
        try:
            if "error" in opts or "dali_error" in opts or "dalic_error" in opts:
                self.error_case(case, opts, work, xfail)
            elif "checkpoint" in opts:
                import oracle_ckpt

                oracle_ckpt.oracle_ckpt_case(self, sys.modules[__name__], case, opts, work,
                                             xfail)
            else:
                self.output_case(case, opts, work, xfail)
        finally:
            if not self.keep:
                shutil.rmtree(work, ignore_errors=True)

    def error_case(self, case, opts, work, xfail):
        dali_phrase = opts.get("dali_error", opts.get("error"))
        dalic_phrase = opts.get("dalic_error", opts.get("error"))
        res = oracle_dali_case(case, opts, work)
        rc, out, err = oracle_dalic(self.dalic, ["run", case, "-n", opts["iterations"]] +
                                    oracle_dalic_args(opts) + oracle_feed_args(opts))
        problem = None
        if res["error"] is None:
            problem = "DALI accepted it (the case is wrong)"
        elif dali_phrase and dali_phrase not in res["error"]:
            problem = "DALI's error lacks %r: %s" % (dali_phrase, res["error"][:300])
        elif rc == 0:
            problem = "dalic accepted what DALI refuses: %s" % res["error"][:300]
        elif dalic_phrase and dalic_phrase not in err:
            problem = "dalic's error lacks %r: %s" % (dalic_phrase, " ".join(err.split())[:300])
        self.report(case, "error", problem, xfail)

    def output_case(self, case, opts, work, xfail):
        checks = opts.get("checks", "outputs,serialize,stats,names").split(",")
        iters = int(opts["iterations"])
        atol = float(opts["atol"])
        res = oracle_dali_case(case, opts, work)
        if res["error"]:
            self.report(case, "dali", "DALI failed: %s" % res["error"][:400], xfail)
            return
        dali_dir = os.path.join(work, "dali")
        if "outputs" in checks:
            d = os.path.join(work, "dalic")
            ran = int(opts.get("ran", "0"))
            rc, out, err = oracle_dalic(self.dalic, ["run", case, "-n", str(iters + ran),
                                                     "--dump", d] + oracle_dalic_args(opts) +
                                        oracle_feed_args(opts))
            if not rc:
                oracle_drop_iterations(d, ran)
            problem = ("dalic failed (%d): %s" % (rc, err.strip()[:400]) if rc
                       else oracle_compare_dirs(dali_dir, d, atol))
            self.report(case, "outputs", problem, xfail)
        if "serialize" in checks:
            pb = os.path.join(work, "dali.pb")
            with open(pb, "wb") as f:
                f.write(res["serialized"])
            d = os.path.join(work, "dalic_from_dali_pb")
            rc, out, err = oracle_dalic(self.dalic, ["run", pb, "-n", str(iters), "--dump", d,
                                                     "--device-id", "none"] +
                                        oracle_feed_args(opts))
            problem = ("dalic cannot run DALI's .pb (%d): %s" % (rc, err.strip()[:400]) if rc
                       else oracle_compare_dirs(dali_dir, d, atol))
            self.report(case, "dali.pb->dalic", problem, xfail)
            mine = os.path.join(work, "dalic.pb")
            rc, out, err = oracle_dalic(self.dalic, ["serialize", case, "-o", mine] +
                                        oracle_dalic_args(opts))
            if rc:
                problem = "dalic serialize failed (%d): %s" % (rc, err.strip()[:400])
            else:
                d = os.path.join(work, "dali_from_dalic_pb")
                try:
                    with open(mine, "rb") as f:
                        oracle_dali_run_serialized(f.read(), iters, d, opts)
                    problem = oracle_compare_dirs(dali_dir, d, atol)
                except Exception as e:  # noqa: BLE001
                    problem = "DALI cannot run dalic's .pb: %s: %s" % (type(e).__name__,
                                                                      str(e)[:400])
            self.report(case, "dalic.pb->DALI", problem, xfail)
            if "names" in checks and not rc:
                with open(mine, "rb") as f:
                    a, b = oracle_proto_names(res["serialized"]), oracle_proto_names(f.read())
                problem = None if a == b else "DALI %s vs dalic %s" % (a, b)
                self.report(case, "names", problem, xfail)
        if "stats" in checks and res.get("stats_error"):
            self.report(case, "stats", "DALI: " + res["stats_error"][:300], xfail)
        elif "stats" in checks:
            rc, out, err = oracle_dalic(self.dalic, ["stats", case, "-n", str(iters), "--json"] +
                                        oracle_dalic_args(opts) + oracle_feed_args(opts))
            if rc:
                problem = "dalic stats failed (%d): %s" % (rc, err.strip()[:400])
            else:
                mine = sorted(json.loads(out)["executor_statistics"].keys())
                theirs = sorted(res["stats"].keys())
                problem = None if mine == theirs else "DALI %s vs dalic %s" % (theirs, mine)
            self.report(case, "stats", problem, xfail)
            # both not pipelined, so the figures cover exactly the iterations run
            rc, out, err = oracle_dalic(self.dalic, ["stats", case, "-n", str(iters), "--json",
                                                     "--exec-pipelined=False",
                                                     "--exec-async=False"] +
                                        oracle_dalic_args(opts) + oracle_feed_args(opts))
            problem = ("dalic stats failed (%d): %s" % (rc, err.strip()[:400]) if rc
                       else oracle_compare_memory(res["stats"], json.loads(out)))
            self.report(case, "memory", problem, xfail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dalic", default=os.path.join(ROOT, "build/release/dalic"))
    ap.add_argument("--filter", default="", help="run the cases whose file name contains this")
    ap.add_argument("--keep", default=None, help="keep work directories under this folder")
    ap.add_argument("cases", nargs="*", help="case files (default: tests/dali/cases/*.py, "
                    "samples/scripts/real/*.py)")
    a = ap.parse_args()
    os.chdir(ROOT)
    cases = a.cases or (sorted(glob.glob(os.path.join(HERE, "cases", "*.py"))) +
                        sorted(glob.glob(os.path.join(ROOT, "samples", "scripts", "real", "*.py"))))
    cases = [c for c in cases if a.filter in os.path.basename(c)]
    o = Oracle(os.path.abspath(a.dalic), a.keep)
    for c in cases:
        o.run_case(os.path.abspath(c))
    print("%d passed, %d failed" % (o.passed, o.failed))
    return 1 if o.failed else 0


if __name__ == "__main__":
    sys.exit(main())
