package io.bullpen.compat;

/** The job data of the user's test, which the guide leaves to the reader. */
record Order(String id) {
}
