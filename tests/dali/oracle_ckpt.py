"""Checkpoint cases of the oracle suite (`# oracle: checkpoint=K`, see oracle.py).

In each executor mode of MODES (or those the case's `ckpt_modes` names), real DALI runs the
case with `enable_checkpointing=True`: K iterations, `pipe.checkpoint()`, then `iterations`
more batches, the reference. dalic runs K iterations and writes its checkpoint
(`dalic run --save-checkpoint`). Then:

    ckpt bytes        dalic's checkpoint == DALI's, byte for byte (on a difference, the first
                      entry that differs, decoded)
    ckpt DALI->dalic  `dalic run --checkpoint DALI's` gives the reference batches
    ckpt dalic->DALI  DALI built with `checkpoint=dalic's` gives the reference batches

The modes are the ones DALI 2.4 restores in (../shared/reference/dali-checkpoint.md, table
1.2): DALI's legacy executor pipelined but synchronous at prefetch depth 2 hangs on the CPU
with or without checkpoints, so it is not among them.
"""
import os

# name: (DALI Pipeline parameters, dalic flags)
MODES = {
    "dynamic": ({}, []),
    "dynamic_pq1": ({"prefetch_queue_depth": 1}, ["--prefetch-queue-depth", "1"]),
    "dynamic_pq3": ({"prefetch_queue_depth": 3}, ["--prefetch-queue-depth", "3"]),
    "simple": ({"exec_dynamic": False, "exec_pipelined": False, "exec_async": False,
                "prefetch_queue_depth": 1},
               ["--exec-pipelined=False", "--exec-async=False", "--prefetch-queue-depth", "1"]),
    "legacy_async_pq2": ({"exec_dynamic": False, "exec_pipelined": True, "exec_async": True,
                          "prefetch_queue_depth": 2}, ["--prefetch-queue-depth", "2"]),
    "legacy_sync_pq1": ({"exec_dynamic": False, "exec_pipelined": True, "exec_async": False,
                         "prefetch_queue_depth": 1},
                        ["--exec-async=False", "--prefetch-queue-depth", "1"]),
}


def oracle_ckpt_fields(buf):
    """(field number, value) pairs of a protobuf message (wire types 0 and 2 only, as in
    dali_proto.Checkpoint)."""
    i = 0
    while i < len(buf):
        key, i = oracle_ckpt_varint(buf, i)
        if key & 7 == 0:
            v, i = oracle_ckpt_varint(buf, i)
        elif key & 7 == 2:
            n, i = oracle_ckpt_varint(buf, i)
            v, i = buf[i:i + n], i + n
        else:
            raise ValueError("wire type %d at byte %d" % (key & 7, i))
        yield key >> 3, v


def oracle_ckpt_varint(buf, i):
    v = s = 0
    while True:
        c = buf[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def oracle_ckpt_entries(data):
    """A checkpoint as [(operator_name, operator_state)] + [("<context>", pipeline_data |
    iterator_data)]."""
    out = []
    for f, v in oracle_ckpt_fields(data):
        d = dict(oracle_ckpt_fields(v))
        if f == 1:
            out.append((d.get(1, b"").decode(), d.get(2, b"")))
        else:
            out.append(("<context>", d.get(1, b"") + b" | " + d.get(2, b"")))
    return out


def oracle_ckpt_diff(theirs, mine):
    """None when equal, else the first entry that differs."""
    if theirs == mine:
        return None
    a, b = oracle_ckpt_entries(theirs), oracle_ckpt_entries(mine)
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return "entry %d: DALI %r vs dalic %r (%d vs %d bytes)" % (
                i, x, y, len(theirs), len(mine))
    return "same entries, different bytes (%d vs %d)" % (len(theirs), len(mine))


def oracle_ckpt_dali_reference(O, case, opts, params, k, n, ref_dir):
    """DALI's checkpoint after k iterations, and its next n batches saved in ref_dir."""
    pipe = O.oracle_load_forced(case, opts, dict(params, enable_checkpointing=True))
    pipe.build()
    for _ in range(k):
        pipe.run()
    cpt = pipe.checkpoint()
    O.oracle_save_outputs(pipe, n, ref_dir)
    del pipe
    return cpt


def oracle_ckpt_dali_restore(O, case, opts, params, cpt, n, out_dir):
    pipe = O.oracle_load_forced(case, opts, dict(params, enable_checkpointing=True,
                                                 checkpoint=cpt))
    pipe.build()
    if not pipe.is_restored_from_checkpoint:
        raise RuntimeError("DALI did not restore the checkpoint")
    O.oracle_save_outputs(pipe, n, out_dir)
    del pipe


def oracle_ckpt_mode(o, O, case, opts, work, xfail, mode):
    params, flags = MODES[mode]
    k, n = int(opts["checkpoint"]), int(opts["iterations"])
    atol = float(opts["atol"])
    ref = os.path.join(work, "dali")
    flags = flags + O.oracle_dalic_args(opts)
    check = lambda what: "ckpt %s %s" % (what, mode)  # noqa: E731
    try:
        theirs = oracle_ckpt_dali_reference(O, case, opts, params, k, n, ref)
    except Exception as e:  # noqa: BLE001 - the message is the result
        o.report(case, check("DALI"), "DALI failed: %s" % O.oracle_message(e)[:400], xfail)
        return
    dali_ckpt = os.path.join(work, "dali.ckpt")
    with open(dali_ckpt, "wb") as f:
        f.write(theirs)
    # dalic writes its checkpoint after k iterations
    mine_path = os.path.join(work, "dalic.ckpt")
    rc, _, err = O.oracle_dalic(o.dalic, ["run", case, "-n", str(k), "--save-checkpoint",
                                          mine_path] + flags)
    mine = None
    if rc:
        o.report(case, check("bytes"), "dalic failed (%d): %s" % (rc, err.strip()[:400]), xfail)
    else:
        with open(mine_path, "rb") as f:
            mine = f.read()
        o.report(case, check("bytes"), oracle_ckpt_diff(theirs, mine), xfail)
    # DALI's checkpoint restored by dalic
    d = os.path.join(work, "dalic_from_dali_ckpt")
    rc, _, err = O.oracle_dalic(o.dalic, ["run", case, "--checkpoint", dali_ckpt, "-n", str(n),
                                          "--dump", d] + flags)
    if not rc:
        O.oracle_drop_iterations(d, k)  # dalic numbers the dump from the checkpoint's position
    problem = ("dalic failed (%d): %s" % (rc, err.strip()[:400]) if rc
               else O.oracle_compare_dirs(ref, d, atol))
    o.report(case, check("DALI->dalic"), problem, xfail)
    # dalic's checkpoint restored by DALI
    if mine is None:
        o.report(case, check("dalic->DALI"), "no dalic checkpoint", xfail)
        return
    d = os.path.join(work, "dali_from_dalic_ckpt")
    try:
        oracle_ckpt_dali_restore(O, case, opts, params, mine, n, d)
        problem = O.oracle_compare_dirs(ref, d, atol)
    except Exception as e:  # noqa: BLE001
        problem = "DALI cannot restore dalic's checkpoint: %s" % O.oracle_message(e)[:400]
    o.report(case, check("dalic->DALI"), problem, xfail)


def oracle_ckpt_case(o, O, case, opts, work, xfail):
    """Runs a checkpoint case: o is the Oracle (reports), O the oracle module (helpers)."""
    modes = opts.get("ckpt_modes", ",".join(MODES)).split(",")
    for mode in modes:
        if mode not in MODES:
            o.report(case, "ckpt", "unknown mode %r (known: %s)" % (mode, ", ".join(MODES)),
                     None)
            continue
        sub = os.path.join(work, mode)
        os.makedirs(sub)
        oracle_ckpt_mode(o, O, case, opts, sub, xfail, mode)
