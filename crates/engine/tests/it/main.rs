//! Integration tests of gin-engine.

mod smoke;
