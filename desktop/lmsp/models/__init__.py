"""The model registry's building blocks: GGUF metadata, hashing, placement and download.

Everything here is pure file and network work with no database and no Qt. The
store and task layers call these functions from worker threads and turn their
results and typed failures into model rows and task events.
"""
