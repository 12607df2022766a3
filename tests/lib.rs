// One test binary for the end-to-end tests; each area is a module.
mod play;
