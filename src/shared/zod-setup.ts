import { z } from 'zod';
import './zod-messages';

export { z };
