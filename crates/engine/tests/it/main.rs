//! Integration tests of gin-engine.

mod properties;
mod runner;
mod saves;
mod vectors;
