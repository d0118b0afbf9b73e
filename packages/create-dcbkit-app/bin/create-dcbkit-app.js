#!/usr/bin/env node
// Committed launcher, so the bin link exists from install time on; the CLI itself is built to dist.
import '../dist/cli.js';
