import { createLinkRequestFlow } from '@vita-docs/core';
import { useEffect } from 'react';
import { useServices } from '../../app/services';
import { useFlow, useFlowInstance } from '../../hooks/use-flow';

/**
 * The client's newest request as the documents pages show it, through the volunteer's request flow
 * (core `createLinkRequestFlow`): read again each time the page's own list is (`loaded` turns `ready`:
 * a load, Refresh, an upload). Apart from the request panel, so a category screen (which shows only
 * the marks) does not download the panel.
 */
export function useLinkStatus(clientId: string, loaded = 'ready') {
  const { api, platform } = useServices();
  const flow = useFlowInstance(() => createLinkRequestFlow({ api, clientId, platform }));
  const { status } = useFlow(flow);
  useEffect(() => {
    if (loaded === 'ready') void flow.send({ type: 'load' });
  }, [flow, loaded]);
  return { status, flow };
}
