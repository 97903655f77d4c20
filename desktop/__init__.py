"""LMSP Desktop: local language models, shared with your apps through LMSP 1.0."""

__version__ = "0.1.0"
PROTOCOL = "lmsp/1.0"
