import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../../web/app/auth-context';
import { HOME, homeFor } from './home';

export { HOME };

/** Auth pages: the load-time refresh succeeded (or a token is present), so go home (spec section 4). */
export function useHomeWhenSignedIn() {
  const { status } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    if (status === 'signedIn') navigate(homeFor(), { replace: true });
  }, [status, navigate]);
  return status;
}
