/** axe on every screen, light, 1366 px (axeEveryScreen.ts; the other schemes and widths are files of their own, run side by side). */
import { axeOnEveryScreen } from './axeEveryScreen';

axeOnEveryScreen('light', '1366');
