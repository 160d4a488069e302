import json, subprocess, statistics, time, sys
import os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B = os.path.join(ROOT, "target/debug/symdbg")
D = os.path.join(ROOT, "tests/data/fold") + "/"
cases = [("lin_srch.py", "lin_srch"), ("count_if.py", "count_if"), ("all_pos.py", "all_pos"),
         ("divmod_sub.py", None), ("deep.py", "deep")]
for f, entry in cases:
    for unroll in (3, 10):
        for fold in ("off", "auto"):
            args = [B, "run", D + f, "--json", "--unroll", str(unroll), "--fold", fold]
            if entry: args += ["--entry", entry]
            times = []
            for _ in range(5):
                t = time.time()
                out = subprocess.run(args, capture_output=True, text=True, timeout=300).stdout
                times.append((time.time() - t) * 1000)
            s = json.loads(out)["stats"]
            print(f"| {f[:-3]} | {unroll} | {fold} | {s['nodes']} | {s['leaves']} | {s['bounds']} | {s['solver_checks']} | {statistics.median(times):.0f} |", flush=True)
