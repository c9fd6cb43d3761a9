"""pytest --nbval book/: settings inherited by every notebook kernel nbval starts."""
import os

# Progress bars write to stderr; keep them out of compared outputs (the refresh helper does the same).
os.environ["REPRO_PROGRESS"] = "0"
