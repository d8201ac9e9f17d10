"""What the benchmark scripts read of a running process in /proc."""


def rss_mib(pid):
    """The process's resident memory (VmRSS) in MiB; 0 when /proc does not say."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
