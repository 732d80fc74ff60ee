"""What developers, the site tests and the benchmark use to serve the built site and drive
Chromium: `python -m devtools.serve`, and how Debian's Chromium is launched here."""
