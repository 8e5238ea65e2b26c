"""Python client for Curbside's ``arena:serve`` (UrbanGround's HTTP control API). Standard library only."""

from .client import DEFAULT_URL, CurbsideClient, CurbsideError, __version__, decode_data_url, image_size

#: The name UrbanGround's harness uses for its client class.
AgentClient = CurbsideClient

__all__ = [
    "DEFAULT_URL",
    "AgentClient",
    "CurbsideClient",
    "CurbsideError",
    "__version__",
    "decode_data_url",
    "image_size",
]
