// The person's passkeys and the create ceremony, shared by Account and the dashboard's offer: a
// module of their own so the dashboard does not load the Account screen with them.
import { isApiError, passkeyMessages } from '@vita-docs/core';
import type { PasskeyList } from '@vita-docs/core';
import { useCallback, useEffect, useState } from 'react';
import { createPasskey } from '../adapters/passkeys';
import { useServices } from '../app/services';

/** The browser's refusal when the person cancels or lets the prompt time out: nothing to say. */
const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');

/** The signed-in person's passkeys, loaded and reloaded; `error` is the load's failure. */
export function usePasskeys() {
  const { api } = useServices();
  const [list, setList] = useState<PasskeyList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setList(await api.listPasskeys());
      setError(null);
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { list, error, reload };
}

/** Runs the create ceremony; alerts what went wrong unless the person cancelled. True when made. */
export function useCreatePasskey() {
  const { api, platform } = useServices();
  return useCallback(async () => {
    try {
      await createPasskey(api);
      return true;
    } catch (error) {
      if (!cancelled(error))
        await platform.alert(isApiError(error) ? error.message : passkeyMessages.createFailed);
      return false;
    }
  }, [api, platform]);
}
