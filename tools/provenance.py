"""What a recorded dataset says of where it was measured, shared by the recording tools
(tools/record_player_costs.py, tools/record_slope.py, tools/paired_speed.py): the processor
and the engine digest."""

import platform
import subprocess
import sys


def cpu():
    """The processor's model name (the machine's architecture where /proc/cpuinfo has none)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def engine_digest(replab, tool):
    """The digest `replab --version` names (`replab 0.1.0 (engine 1a2b3c4d5e6f7a8b)`); `tool`
    names the caller in the message of a failure (exit status 2)."""
    out = subprocess.run([replab, "--version"], capture_output=True, text=True)
    _, sep, tail = out.stdout.strip().rpartition("(engine ")
    if out.returncode != 0 or not sep or not tail.endswith(")"):
        print(f"{tool}: {replab} --version names no engine digest: {out.stdout.strip()!r} "
              f"{out.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return tail[:-1]
