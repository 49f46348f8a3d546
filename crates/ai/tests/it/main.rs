//! Integration tests of gin-ai.
