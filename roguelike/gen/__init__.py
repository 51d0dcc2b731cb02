"""Floor generation: the seven pipeline stages, one module each, and the pipeline that runs them."""
