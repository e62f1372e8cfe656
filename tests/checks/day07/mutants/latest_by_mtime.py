"""Resume takes the session whose file was modified last, not the newest by name."""
TARGET = "mca/session/resume.py"
FAILS = ("resume-across-processes",)


def latest_session_id(sessions_dir):
    files = _session_files(Path(sessions_dir))
    return max(files, key=lambda p: p.stat().st_mtime).stem if files else None
