/** What the benchmarks share: calling the API and getting a signed-in organization owner. */
/** Calls the API with a JSON body and returns the parsed answer; anything but `expected` stops the run. */
export async function call<T>(
  base: string,
  method: string,
  url: string,
  expected: number,
  body?: unknown,
  token?: string,
) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`${method} ${url} answered ${response.status} (expected ${expected}): ${text}`);
  }
  return JSON.parse(text) as T;
}

/** Signs an organization up and its owner in; returns the bearer token. */
export async function signUpAndIn(base: string): Promise<{ token: string; loginId: string }> {
  const terms = await call<{ data: { id: string } }>(base, 'GET', '/core/v1/terms/current', 200);
  const acceptTermId = terms.data.id;
  const suffix = Math.random().toString(36).slice(2, 10);
  const loginId = `bench-${suffix}`;
  const password = 'Load2test9';
  await call(base, 'POST', '/core/v1/signup', 201, {
    data: {
      type: 'SignUp',
      attributes: {
        organizationName: `Bench ${suffix}`,
        loginId,
        userName: 'Bench Owner',
        email: `${loginId}@example.com`,
        password,
        passwordConfirmation: password,
        locale: 'en',
        acceptTermId,
      },
    },
  });
  const auth = await call<{ data: { attributes: { authorizationToken: string } } }>(
    base,
    'POST',
    '/core/v1/auth',
    201,
    {
      data: { type: 'Auth', attributes: { loginId, password, acceptTermId } },
    },
  );
  const token = auth.data.attributes.authorizationToken;
  await call(base, 'GET', '/core/v1/me', 200, undefined, token); // the token works before the load starts
  return { token, loginId };
}
