/**
 * A journey file's server and browser as one object, opened in the file's beforeAll and closed in its afterAll (as
 * `useTestApp` is the API tests' app): read its fields inside tests, never at the top of the file. `setUp` makes the
 * file's own records once the journey is open; what it answers joins the object (`journey.orderId`). Kept apart from
 * `helpers.ts`, which the benchmarks import outside vitest.
 */
import { afterAll, beforeAll } from 'vitest';
import { closeJourney, openDemoJourney, openJourney, openOrgJourney } from './helpers';

type Opts = Parameters<typeof openJourney>[0];
type SetUp<J, X> = (journey: J) => Promise<X | void>;

/** Opens `open()`'s journey and runs `setUp` in a beforeAll (the server bundle and Chromium can take minutes on a busy machine). */
function useOpened<J extends object, X extends object>(open: () => Promise<J>, setUp?: SetUp<J, X>): J & X {
  const journey = {} as J & X;
  beforeAll(async () => {
    Object.assign(journey, await open());
    if (setUp) Object.assign(journey, await setUp(journey));
  }, 300_000);
  afterAll(() => closeJourney(journey));
  return journey;
}

/** `openJourney`'s server and browser, for the file. */
export const useJourney = (opts: Opts = {}) => useOpened(() => openJourney(opts));

type OrgJourney = Awaited<ReturnType<typeof openOrgJourney>>;
/** `openOrgJourney`'s server, browser, fresh organisation `name` and its admin's `api`, for the file. */
export const useOrgJourney = <X extends object = object>(name: string, setUp?: SetUp<OrgJourney, X>, opts: Opts = {}) =>
  useOpened(() => openOrgJourney(name, opts), setUp);

type DemoJourney = Awaited<ReturnType<typeof openDemoJourney>>;
/** `openDemoJourney`'s server, browser, demo URL, the admin's `api` and `userId(email)`, for the file. */
export const useDemoJourney = <X extends object = object>(setUp?: SetUp<DemoJourney, X>, opts: Opts = {}) => useOpened(() => openDemoJourney(opts), setUp);
