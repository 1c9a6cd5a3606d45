// Testing Library waits for a state (findBy…, waitFor) for one second by default: too short for
// the tests that talk to a real server on a busy machine. They wait as long as a story's step does.
import { configure } from "@testing-library/dom";

configure({ asyncUtilTimeout: 7_000 });
