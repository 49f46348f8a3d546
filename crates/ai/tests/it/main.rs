//! Integration tests of gin-ai.

mod agents;
