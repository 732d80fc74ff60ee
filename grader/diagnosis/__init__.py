"""Why the learner's numbers are wrong, in their terms: the diagnosis (diagnose.py) of a failed
run, and what it reads and says: the sentences (explain.py), the learner's code read without
running it (cues.py, reading.py), their crashes (crashes.py) and the advice their code gets
(advice.py)."""
