"""Engine-benchmark runners: one module per engine, each with ``NAME``, ``available()`` and ``play()``."""
